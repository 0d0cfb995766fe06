/**
 * What every command's run() receives: the streams with their TTY facts, the environment, the global
 * options and services made on first use. Commands never read `process`, so they run in-process with
 * fake streams as well as at a terminal.
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
  /** Terminal height, when stdout says it. */
  rows?: number;
}

/** Where requests go and with which key: the --sandbox server's, or the resolved settings'. */
export interface Connection {
  baseUrl: string;
  baseUrlSource: SettingSource;
  baseUrlOrigin?: string;
  /** Undefined when none is configured. */
  apiKey?: string;
  keySource: SettingSource;
  keyOrigin?: string;
  /** Answered in-process (--sandbox, --catalogue): no response cache, no budget. */
  local?: boolean;
  /** With `local`: where its requests go instead of a socket. */
  dispatcher?: Dispatcher;
  /** With --catalogue: the directory answering. */
  catalogue?: string;
}

/** The signals a server acts on while it runs: SIGHUP rereads its files, SIGUSR1 reopens its access log. */
export type ServerSignal = 'SIGHUP' | 'SIGUSR1';

export interface Context {
  io: IOStreams;
  env: Env;
  /** The command line after `exercises`, set with `globals` before any command runs. */
  argv: readonly string[];
  /** The top-level command as commander resolved it: read it, never argv (an id may be spelled `mirror`). */
  command?: string;
  globals: GlobalOptions;
  /** Aborted on SIGINT/SIGTERM: long work (paging, downloads) stops and cleans up. */
  signal: AbortSignal;
  /** Runs `listener` on each `signal` until the returned function is called. */
  onSignal?: (signal: ServerSignal, listener: () => void) => () => void;
  /** Work to run once when the command ends. */
  onExit(fn: () => void | Promise<void>): void;
  /** Runs the onExit work, last registered first, once. */
  close(): Promise<void>;
  /** flag > environment > stored config > default, resolved once. */
  settings(): Settings;
  /** Decided once, on first use; --sandbox starts its server then. */
  connection(): Promise<Connection>;
  /** The API client, made on first use; AuthError (exit 3) without a key. */
  api(): Promise<ApiClient>;
  /** A client for another base URL or key, closed with the run. */
  apiFor(conn: { baseUrl: string; apiKey: string; local?: boolean; dispatcher?: Dispatcher }): Promise<ApiClient>;
}

/** The --verbose line writer, or undefined without --verbose. */
export function verboseLog(ctx: Pick<Context, 'io' | 'globals'>): ((line: string) => void) | undefined {
  return ctx.globals.verbose ? (line) => void ctx.io.stderr.write(`${line}\n`) : undefined;
}

/** Colour only when the stream is a terminal, NO_COLOR is unset and --no-color was not given. */
export function colorEnabled(ctx: Pick<Context, 'io' | 'env' | 'globals'>, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (!ctx.globals.color) return false;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  return stream === 'stdout' ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY;
}

/** How many colours the terminal takes (chalk's levels 0–3), from the context's environment as supports-color reads it. */
export function colorLevel(env: Env): 0 | 1 | 2 | 3 {
  const forced = env.FORCE_COLOR;
  if (forced === '0' || forced === 'false') return 0;
  if (forced === '2' || forced === '3') return Number(forced) as 2 | 3;
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (/-256(colou?r)?$/i.test(env.TERM ?? '')) return 2;
  return 1;
}

/** The output format in force: --json, then --format, else table on a terminal and tsv in a pipe. */
export function outputFormat(ctx: Pick<Context, 'io' | 'globals'>): OutputFormat {
  if (ctx.globals.json) return ctx.globals.format === 'jsonl' ? 'jsonl' : 'json';
  if (ctx.globals.format) return ctx.globals.format;
  return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
}
