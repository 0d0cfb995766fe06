/**
 * The CLI in-process: a Context over in-memory streams (a terminal or a pipe, any width), a
 * given environment with a private HOME and XDG dirs, and runInProcess(), which runs a command
 * line through runCli() with the same options and result as run-cli.ts's child process.
 * A test converted from runCli mostly changes its import.
 */
import { Readable, Writable } from 'node:stream';
import { runCli as runCliInProcess } from '../../src/cli.js';
import type { Runners } from '../../src/commands/index.js';
import { type Context, DEFAULT_GLOBALS, type GlobalOptions } from '../../src/context.js';
import { type ContextOptions, createContext } from '../../src/factory.js';
import { reportError } from '../../src/output/errors.js';
import { type CliResult, type RunCliOptions, testEnv } from './run-cli.js';

/**
 * A stdout or stderr that keeps what is written, for reading back. Without `columns` it has
 * no width of its own, as a pipe has none (whoever draws on it then takes the width it is given).
 */
export class MemoryOutput extends Writable {
  private readonly chunks: Buffer[] = [];
  private readonly waiters: Array<() => void> = [];

  constructor(
    readonly isTTY = false,
    readonly columns?: number,
  ) {
    super();
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    for (const wake of this.waiters.splice(0)) wake();
    callback();
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }

  /** Resolves with the text written so far once it matches `pattern` (e.g. a server's first line). */
  async waitFor(pattern: RegExp): Promise<string> {
    for (;;) {
      const text = this.text();
      if (pattern.test(text)) return text;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }
}

export interface TestContextOptions {
  /** Extra environment over a clean one with a private HOME (see run-cli.ts testEnv). */
  env?: Record<string, string | undefined>;
  /** What stdin holds; it is closed after. Without it stdin is empty. */
  input?: string | Buffer;
  /** Every stream a terminal (default: none, as in a pipe); the three below say it one by one. */
  tty?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
  /** Terminal width (default 80). */
  columns?: number;
  /** Global options, for a command's run() called directly (runCli sets them from the command line). */
  globals?: Partial<GlobalOptions>;
  /** The command line after `exercises`, as runCli would set it (a next-page hint repeats it). */
  argv?: string[];
  /** Where the run's requests go (test/helpers/httpmock.ts), or the API client itself: ContextOptions. */
  dispatcher?: ContextOptions['dispatcher'];
  api?: ContextOptions['api'];
}

export interface TestContext {
  ctx: Context;
  stdout: MemoryOutput;
  stderr: MemoryOutput;
  /** What Ctrl-C does to a real run: aborts the context's signal. */
  abort(): void;
}

export function testContext(options: TestContextOptions = {}): TestContext {
  const columns = options.columns ?? 80;
  const stdout = new MemoryOutput(options.stdoutIsTTY ?? options.tty ?? false, columns);
  const stderr = new MemoryOutput(options.stderrIsTTY ?? options.tty ?? false, columns);
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const controller = new AbortController();
  const ctx = createContext({
    io: {
      stdout,
      stderr,
      stdin,
      stdoutIsTTY: stdout.isTTY,
      stderrIsTTY: stderr.isTTY,
      stdinIsTTY: options.stdinIsTTY ?? options.tty ?? false,
      columns,
    },
    env: testEnv(options.env),
    signal: controller.signal,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.api ? { api: options.api } : {}),
  });
  ctx.globals = { ...DEFAULT_GLOBALS, ...options.globals };
  if (options.argv) ctx.argv = options.argv;
  return { ctx, stdout, stderr, abort: () => controller.abort() };
}

/**
 * A context on a terminal (stdout and stderr; stdin is not one), for driving the renderers at
 * any width: colour and the pager off unless the test asks for them, so a table on a fake
 * terminal never starts a real `less`.
 */
export function terminalContext(options: TestContextOptions = {}): TestContext {
  return testContext({
    stdoutIsTTY: true,
    stderrIsTTY: true,
    ...options,
    globals: { color: false, pager: false, ...options.globals },
  });
}

/** The terminal widths the renderers are checked at. */
export const WIDTHS = [40, 80, 100, 200] as const;

export interface InProcessOptions extends Pick<RunCliOptions, 'env' | 'input' | 'timeoutMs'>, Omit<TestContextOptions, 'globals'> {
  /** Replaces commands' run(options, ctx): checks option parsing without doing the work. */
  runners?: Runners;
  /** Called with the test context once the run has started, e.g. to abort it later. */
  onStart?: (t: TestContext) => void;
}

/**
 * Runs `exercises <args>` in this process and collects what the child process helper would:
 * the exit code and the output. `timeoutMs` aborts the run as a kill would end a child, and
 * then reports signal SIGKILL. Node's process warnings during the run (a TimeoutOverflowWarning,
 * say) are added to stderr, where a child process would have printed them.
 */
export async function runInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const t = testContext(options);
  const onWarning = (warning: Error): void => void t.stderr.write(`(node) ${warning.name}: ${warning.message}\n`);
  process.on('warning', onWarning);
  let killed = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        killed = true;
        t.abort();
      }, options.timeoutMs)
    : undefined;
  const running = runCliInProcess(args, t.ctx, options.runners ? { runners: options.runners } : {});
  options.onStart?.(t);
  try {
    const code = await running;
    const stdoutBytes = t.stdout.bytes();
    return { code, signal: killed ? 'SIGKILL' : null, stdout: stdoutBytes.toString('utf8'), stderr: t.stderr.text(), stdoutBytes };
  } finally {
    clearTimeout(timer);
    process.off('warning', onWarning);
  }
}

export interface CommandResult {
  /** 0, or the exit code of the error the command threw, reported as runCli reports it. */
  code: number;
  stdout: string;
  stderr: string;
  /** What the command threw, if anything. */
  error?: unknown;
}

/**
 * Calls a command's `run(options, ctx)` directly on a test context, as runCli would after
 * parsing: an error it throws is reported on the context's stderr and gives the exit code;
 * the context's exit work (pools, servers, the ledger) is done before it returns.
 */
export async function runCommand<O>(run: (options: O, ctx: Context) => Promise<void>, options: O, t: TestContext): Promise<CommandResult> {
  let code = 0;
  let error: unknown;
  try {
    await run(options, t.ctx);
  } catch (err) {
    error = err;
    code = reportError(err, t.ctx);
  } finally {
    await t.ctx.close();
  }
  return { code, stdout: t.stdout.text(), stderr: t.stderr.text(), ...(error !== undefined ? { error } : {}) };
}
