/**
 * What every command's run() receives (built once by src/factory.ts): the I/O streams with
 * their TTY facts, the environment, the global options, and lazily created services
 * (settings, the connection, the API client). Commands take everything from here and never
 * from `process`, so they run in-process with fake streams as well as in a real terminal.
 */
import type { Readable, Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ApiClient } from './api/client.js';
import type { Env } from './config/parsers.js';
import type { SettingSource, Settings, GlobalOptions, OutputFormat } from './config/settings.js';

export type { Env };
export { DEFAULT_GLOBALS, type GlobalOptions, type OutputFormat } from './config/settings.js';

export interface IOStreams {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  /** Terminal height, when stdout is a terminal that says it (pictures are fitted to it). */
  rows?: number;
}

/** Where requests go and with which key: the --sandbox server's, or the resolved settings'. */
export interface Connection {
  baseUrl: string;
  baseUrlSource: SettingSource;
  /** The flag or environment variable it came from, for messages. */
  baseUrlOrigin?: string;
  /** Undefined when none is configured; commands that need one say how to give it. */
  apiKey?: string;
  keySource: SettingSource;
  keyOrigin?: string;
  /** Answered in-process (--sandbox, --catalogue): nothing leaves the machine, so no response cache and no budget. */
  local?: boolean;
  /** With `local`: where its requests go instead of a socket (src/server/in-process.ts). */
  dispatcher?: Dispatcher;
  /** With --catalogue (or EXERCISES_CATALOGUE, `config set catalogue`): the directory answering. */
  catalogue?: string;
}

/** The signals a server acts on while it runs: SIGHUP rereads its files, SIGUSR1 reopens its access log. */
export type ServerSignal = 'SIGHUP' | 'SIGUSR1';

export interface Context {
  io: IOStreams;
  env: Env;
  /** The command line after `exercises` (to repeat it in a next-page hint); runCli sets it, and `globals`, before any command runs. */
  argv: readonly string[];
  /**
   * The top-level command that runs (`show`, `auth`…) as commander resolved it, set before its
   * action; read it, never argv, to know which command runs (an id may be spelled `mirror`).
   */
  command?: string;
  globals: GlobalOptions;
  /** Aborted on SIGINT/SIGTERM: long work (paging, downloads) stops and cleans up. */
  signal: AbortSignal;
  /** Runs `listener` on each `signal` (a server rereading its files, reopening its log) until the returned function is called; main() wires it. */
  onSignal?: (signal: ServerSignal, listener: () => void) => () => void;
  /** Register work to run once when the command ends (close servers, pools, remove temp files). */
  onExit(fn: () => void | Promise<void>): void;
  /** Runs the onExit work, last registered first, once; runCli calls it when the command ends. */
  close(): Promise<void>;
  /** flag > environment > stored config > default, resolved on first use, once. */
  settings(): Settings;
  /** Decided once, on first use; --sandbox starts its server then. */
  connection(): Promise<Connection>;
  /** The API client for this run, created on first use; AuthError (exit 3) without a key. */
  api(): Promise<ApiClient>;
  /** A client for another base URL or key (`auth` checks a key before storing it), closed with the run. */
  apiFor(conn: { baseUrl: string; apiKey: string; local?: boolean; dispatcher?: Dispatcher }): Promise<ApiClient>;
}

/** The --verbose line writer (one line to stderr each), or undefined without --verbose. */
export function verboseLog(ctx: Pick<Context, 'io' | 'globals'>): ((line: string) => void) | undefined {
  return ctx.globals.verbose ? (line) => void ctx.io.stderr.write(`${line}\n`) : undefined;
}

/** Colour only when the stream is a terminal, NO_COLOR is unset and --no-color was not given. */
export function colorEnabled(ctx: Pick<Context, 'io' | 'env' | 'globals'>, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (!ctx.globals.color) return false;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  return stream === 'stdout' ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY;
}

/**
 * How many colours the terminal takes (chalk's levels: 0 none, 1 basic, 2 256 colours,
 * 3 truecolor), read from the context's environment as supports-color reads process.env:
 * FORCE_COLOR's level, then COLORTERM and TERM.
 */
export function colorLevel(env: Env): 0 | 1 | 2 | 3 {
  const forced = env.FORCE_COLOR;
  if (forced === '0' || forced === 'false') return 0;
  if (forced === '2' || forced === '3') return Number(forced) as 2 | 3;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (/-256(colou?r)?$/i.test(env.TERM ?? '')) return 2;
  return 1;
}

/** The output format in force: --json (jsonl with --format jsonl), then --format, else table on a terminal and tsv in a pipe. */
export function outputFormat(ctx: Pick<Context, 'io' | 'globals'>): OutputFormat {
  if (ctx.globals.json) return ctx.globals.format === 'jsonl' ? 'jsonl' : 'json';
  if (ctx.globals.format) return ctx.globals.format;
  return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
}
