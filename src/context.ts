/**
 * What every command's run() receives: the I/O streams with their TTY facts, the global
 * options, the environment, and lazily created services (settings, the API client).
 * Commands take everything from here, so they can be run in-process with fake streams.
 */
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { SettingSource } from './config/settings.js';

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface IOStreams {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
}

/** The global options of DESIGN.md "CLI surface", as commander parsed them. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  lang?: string;
  format?: OutputFormat;
  json?: boolean;
  /** commander's `--no-color` sets this to false. */
  color: boolean;
  timeout?: number;
  retries?: number;
  verbose: boolean;
  quiet: boolean;
  sandbox: boolean;
  allowInsecure: boolean;
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
}

export interface Context {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  /** The command line after `node exercises` (process.argv.slice(2)), e.g. to repeat it in a next-page hint. */
  argv: readonly string[];
  globals: GlobalOptions;
  /** Aborted on SIGINT/SIGTERM: long work (paging, downloads) stops and cleans up. */
  signal: AbortSignal;
  /** Register work to run once before the process exits (close servers, pools, remove temp files). */
  onExit(fn: () => void | Promise<void>): void;
  /** Decided once, on first use (src/commands/shared/connection.ts; --sandbox starts its server then). */
  connection(): Promise<Connection>;
}

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

/** The --verbose line writer (one line to stderr each), or undefined without --verbose. */
export function verboseLog(ctx: Pick<Context, 'io' | 'globals'>): ((line: string) => void) | undefined {
  return ctx.globals.verbose ? (line) => void ctx.io.stderr.write(`${line}\n`) : undefined;
}

/** Colour only when stdout is a terminal, NO_COLOR is unset and --no-color was not given. */
export function colorEnabled(ctx: Pick<Context, 'io' | 'env' | 'globals'>, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (!ctx.globals.color) return false;
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  return stream === 'stdout' ? ctx.io.stdoutIsTTY : ctx.io.stderrIsTTY;
}

/** The output format in force: --json (jsonl with --format jsonl), then --format, else table on a terminal and tsv in a pipe. */
export function outputFormat(ctx: Pick<Context, 'io' | 'globals'>): OutputFormat {
  if (ctx.globals.json) return ctx.globals.format === 'jsonl' ? 'jsonl' : 'json';
  if (ctx.globals.format) return ctx.globals.format;
  return ctx.io.stdoutIsTTY ? 'table' : 'tsv';
}
