/** Builds a run's Context once (main() over the process, tests over in-memory streams); its services are made on first use. */
import { ApiClient } from './api/client.js';
import { type CacheMode, keyHash } from './cache/cached-get.js';
import type { Dispatcher } from 'undici';
import { Transport } from './http/transport.js';
import { type Connection, type Context, DEFAULT_GLOBALS, type Env, type IOStreams, verboseLog } from './context.js';
import { type Settings, resolveSettings } from './config/settings.js';
import { budgetFor, decideConnection, requireKey } from './connection.js';
import { ResponseCache } from './cache/response-cache.js';
import { cacheRoot, httpCacheDir, ledgerPath } from './cache/store-files.js';
import { ledgerOrigin } from './cache/ledger.js';
import { requestCount } from './http/counting.js';
import { redactorFor } from './util/text.js';
import { commandDeadline } from './config/time-limits.js';
import { appendIdIndex } from './completion/id-index.js';
import { languageNoter } from './output/notice.js';
import { isLoopbackHost } from './util/url-policy.js';

export type ClientTarget = { baseUrl: string; apiKey?: string | undefined; local?: boolean; catalogue?: string; dispatcher?: Dispatcher | undefined };

export interface ContextOptions {
  io: IOStreams;
  env: Env;
  /** Aborted to interrupt the run. */
  signal?: AbortSignal;
  onSignal?: Context['onSignal'];
  /** The seams a test replaces, as gh's tests do: `dispatcher` takes every request, `api` makes the client. */
  dispatcher?: Dispatcher;
  api?: (target: ClientTarget) => ApiClient | Promise<ApiClient>;
}

/** Calls `make` once, on first use, and keeps its answer. */
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
    ...(options.onSignal ? { onSignal: options.onSignal } : {}),
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
    // A broken config file is reported first, even with --sandbox.
    settings: once((): Settings => resolveSettings(ctx)),
    connection: once(async (): Promise<Connection> => decideConnection({ settings: ctx.settings(), globals: ctx.globals, env: ctx.env })),
    api: once(async (): Promise<ApiClient> => {
      const conn = requireKey(await ctx.connection());
      const client = options.api
        ? await options.api(conn)
        : await makeClient(ctx, conn, { cache: true, dispatcher: options.dispatcher, noteLanguage: languageNoter(ctx) });
      const { timeout, retries } = ctx.settings();
      const from = conn.keySource === 'sandbox' ? 'the sandbox' : (conn.keyOrigin ?? 'the stored config');
      verboseLog(ctx)?.(`using ${client.baseUrl.href} with the key from ${from}; timeout ${timeout} ms, ${retries} retries`);
      return client;
    }),
    apiFor: async (conn) => (options.api ? options.api(conn) : makeClient(ctx, conn, { cache: false, dispatcher: options.dispatcher })),
  };
  return ctx;
}

/** An API client for `conn`, its transport made on the first request that goes out; `cache: false` always asks. */
async function makeClient(
  ctx: Context,
  conn: ClientTarget & { baseUrlSource?: string },
  options: { cache: boolean; dispatcher?: Dispatcher | undefined; noteLanguage?: (asked: string, answered: string) => void },
): Promise<ApiClient> {
  const settings = ctx.settings();
  const log = verboseLog(ctx);
  const root = cacheRoot(ctx.env);
  const transport = async (): Promise<Transport> => {
    warnIfInsecure(ctx, conn.baseUrl, settings);
    // A catalogue directory is the user's own files: nothing to count (the sandbox is, so `quota` can be tried).
    const counter = conn.catalogue
      ? undefined
      : requestCount({
          path: ledgerPath(root),
          origin: conn.baseUrl,
          countAs: ledgerOrigin(conn),
          keyHash: keyHash(conn.apiKey),
          // The sandbox is counted but never stopped: it spends no quota.
          budget: budgetFor(conn, settings),
          redact: redactorFor(conn.apiKey),
          warn: (message) => void ctx.io.stderr.write(`warning: ${message}\n`),
          log,
        });
    // A local catalogue's own, else the seam's, else undici's Agent.
    const dispatcher = conn.dispatcher ?? options.dispatcher;
    const made = new Transport({
      baseUrl: conn.baseUrl,
      apiKey: conn.apiKey,
      settings,
      commandDeadline: commandDeadline(settings, ctx.command, conn.local === true),
      signal: ctx.signal,
      beforeRequest: counter?.beforeRequest,
      afterResponse: counter?.afterResponse,
      log,
      ...(dispatcher ? { dispatcher } : { proxyEnv: ctx.env }),
    });
    ctx.onExit(() => made.close());
    if (counter) ctx.onExit(() => counter.flush());
    return made;
  };
  // --offline over --no-cache over --refresh.
  const { offline, cache, refresh } = ctx.globals;
  const mode: CacheMode = offline ? 'offline' : !cache ? 'no-cache' : refresh ? 'refresh' : 'normal';
  // A local catalogue's answers would only pile up in the cache.
  const cached = options.cache && !conn.local;
  return new ApiClient({
    baseUrl: conn.baseUrl,
    apiKey: conn.apiKey,
    transport,
    ...(cached ? { cache: { store: openStore(ctx, httpCacheDir(root), log), mode, ttlMs: settings.cacheTtl, noteIds: idIndexWriter(ctx, root) } } : {}),
    log,
    noteLanguage: options.noteLanguage,
  });
}

/** Plain http off loopback, allowed by the setting: said once, when the first request goes out, naming what allowed it; not with --quiet. */
function warnIfInsecure(ctx: Context, baseUrl: string, { allowInsecure, from }: Settings): void {
  const url = new URL(baseUrl);
  if (!allowInsecure || url.protocol !== 'http:' || isLoopbackHost(url.hostname) || ctx.globals.quiet) return;
  const by = from.allowInsecure.origin ?? 'the stored allow-insecure setting';
  ctx.io.stderr.write(`warning: plain http:// to ${url.host}: the API key and data travel unencrypted (allowed by ${by}).\n`);
}

/** The response cache, its writes awaited when the run ends. */
function openStore(ctx: Context, dir: string, log: ((line: string) => void) | undefined): ResponseCache {
  const store = ResponseCache.open(dir, { log });
  ctx.onExit(() => store.flush());
  return store;
}

/** Collects the ids and names answered and adds them to completion's id index once, at exit; a failure is ignored. */
function idIndexWriter(ctx: Context, root: string): (entries: Array<{ id: string; name?: string }>) => void {
  const seen: Array<{ id: string; name?: string }> = [];
  ctx.onExit(() => void (seen.length > 0 && appendIdIndex(root, seen)));
  // One push per entry: a hostile page may hold 150,000.
  return (entries) => {
    for (const entry of entries) seen.push(entry);
  };
}
