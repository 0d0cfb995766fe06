/**
 * Builds the Context a run works with, once: the I/O streams with their TTY facts and width,
 * the environment, and the services created on first use — the settings (resolved once), the
 * connection (decided once; --sandbox starts its server then) and the API client. The one
 * place commands get them; main() builds it over the process, tests over in-memory streams.
 * Nothing heavy is loaded here: the transport and the sandbox server are imported on first use.
 */
import { isatty } from 'node:tty';
import type { ApiClient } from './api/client.js';
import { type Connection, type Context, DEFAULT_GLOBALS, type Env, type IOStreams, verboseLog } from './context.js';
import { type Settings, resolveSettings } from './config/settings.js';
import { decideConnection, requireKey } from './connection.js';

export interface ContextOptions {
  io: IOStreams;
  env: Env;
  /** Aborted to interrupt the run (main() does so on SIGINT/SIGTERM). */
  signal?: AbortSignal;
}

/** Calls `make` once, on first use, and keeps its answer (a rejected promise included). */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

export function createContext(options: ContextOptions): Context {
  const exitHooks: Array<() => void | Promise<void>> = [];
  let closed: Promise<void> | undefined;

  const ctx: Context = {
    io: options.io,
    env: options.env,
    argv: [],
    globals: { ...DEFAULT_GLOBALS },
    signal: options.signal ?? new AbortController().signal,
    onExit: (fn) => void exitHooks.push(fn),
    close: () =>
      (closed ??= (async () => {
        for (const fn of exitHooks.reverse()) {
          try {
            await fn();
          } catch {
            // Cleanup must never mask the command's own outcome.
          }
        }
      })()),
    // A broken config file is reported before anything else, even with --sandbox.
    settings: once((): Settings => resolveSettings(ctx)),
    connection: once(async (): Promise<Connection> => {
      return decideConnection({ settings: ctx.settings(), sandbox: ctx.globals.sandbox, globals: ctx.globals, env: ctx.env, onExit: ctx.onExit });
    }),
    api: once(async (): Promise<ApiClient> => {
      const conn = requireKey(await ctx.connection());
      const client = await ctx.apiFor(conn);
      const log = verboseLog(ctx);
      if (log) {
        const { timeoutMs, retries } = ctx.settings();
        const from = conn.keySource === 'sandbox' ? 'the sandbox' : conn.keyOrigin ?? 'the stored config';
        log(`using ${client.transport.baseUrl.href} with the key from ${from}; timeout ${timeoutMs} ms, ${retries} retries`);
      }
      return client;
    }),
    apiFor: async (conn) => {
      const [{ Transport }, { ApiClient }] = await Promise.all([import('./http/transport.js'), import('./api/client.js')]);
      const { timeoutMs, retries } = ctx.settings();
      const log = verboseLog(ctx);
      const transport = new Transport({
        baseUrl: conn.baseUrl,
        apiKey: conn.apiKey,
        timeoutMs,
        retries,
        allowInsecure: ctx.globals.allowInsecure,
        signal: ctx.signal,
        ...(log ? { log } : {}),
      });
      ctx.onExit(() => transport.close());
      return new ApiClient(transport);
    },
  };
  return ctx;
}

/** The process's own streams, with their TTY facts and the terminal width. */
export function processStreams(): IOStreams {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is created on first access, and for a file or /dev/null that loads
    // fs streams, fs/promises and readline (~2 ms): only commands that read stdin pay for it.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // Same answer as process.stdin.isTTY, without creating the stream.
    stdinIsTTY: isatty(0),
    columns: process.stdout.columns && process.stdout.columns > 0 ? process.stdout.columns : 80,
  };
}
