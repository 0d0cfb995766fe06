/** A command context with in-memory streams, for driving the renderers in-process at any width. */
import { PassThrough, Writable } from 'node:stream';
import { type Context, DEFAULT_GLOBALS, type GlobalOptions } from '../../src/context.js';
import { createContext } from '../../src/factory.js';

/** A stream that keeps what was written (as text). */
export class MemoryStream extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

export interface FakeOptions {
  columns?: number;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  argv?: string[];
  /** `json` as commander leaves `--json [fields]`: true or the field list. */
  globals?: Omit<Partial<GlobalOptions>, 'json'> & { json?: boolean | string };
}

export interface FakeContext {
  ctx: Context;
  stdout: MemoryStream;
  stderr: MemoryStream;
}

export function fakeContext(options: FakeOptions = {}): FakeContext {
  const stdout = new MemoryStream();
  const stderr = new MemoryStream();
  const ctx = createContext({
    io: {
      stdout,
      stderr,
      stdin: new PassThrough(),
      stdoutIsTTY: options.stdoutIsTTY ?? true,
      stderrIsTTY: options.stderrIsTTY ?? true,
      stdinIsTTY: false,
      columns: options.columns ?? 80,
    },
    env: options.env ?? {},
    signal: new AbortController().signal,
  });
  ctx.argv = options.argv ?? [];
  // No pager unless a test asks for one: a table on a fake terminal must not start a real `less`.
  ctx.globals = { ...DEFAULT_GLOBALS, color: false, pager: false, ...options.globals };
  return { ctx, stdout, stderr };
}

export const WIDTHS = [40, 80, 100, 200] as const;
