/**
 * Long output on a terminal goes through a pager, as git and gh do: EXERCISES_PAGER, then
 * PAGER, else `less -FRX`; `cat` or the empty string means none, and so does --no-pager. LESS
 * (and LV) are set when unset, so `PAGER=less` behaves the same. A pager that cannot be started
 * is no error: the output is written directly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import type { Context } from '../context.js';

export const DEFAULT_PAGER = 'less -FRX';

export interface Pager {
  /** Where the output goes: the pager's stdin, or stdout itself. */
  stream: Writable;
  /** Ends the output and waits until the person has left the pager. */
  done(): Promise<void>;
}

type PagerContext = Pick<Context, 'io' | 'env'>;

/** The pager command in force, or undefined for none. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const command = (env.EXERCISES_PAGER ?? env.PAGER ?? DEFAULT_PAGER).trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/**
 * Characters that make a command line shell syntax rather than words (git's rule): such a
 * command runs through `sh -c`; a plain `less -FRX` is started directly, so that a missing
 * program is known before any output is written to it.
 */
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[#~=%{}!\n]/;

function direct(ctx: PagerContext): Pager {
  return { stream: ctx.io.stdout, done: async () => {} };
}

/**
 * Starts the pager when `enabled` (the caller's --no-pager) and stdout is a terminal; else
 * (or when it cannot be started) the output goes to stdout directly.
 */
export async function startPager(ctx: PagerContext, enabled: boolean): Promise<Pager> {
  if (!enabled || !ctx.io.stdoutIsTTY) return direct(ctx);
  const command = pagerCommand(ctx.env);
  if (command === undefined) return direct(ctx);
  const env = { ...ctx.env, LESS: ctx.env.LESS ?? 'FRX', LV: ctx.env.LV ?? '-c' };
  const stdio: ['pipe', 'inherit', 'inherit'] = ['pipe', 'inherit', 'inherit'];
  const [file = '', ...args] = command.split(/\s+/);
  let child: ChildProcess;
  try {
    child = SHELL_SYNTAX.test(command) ? spawn(command, { shell: true, stdio, env }) : spawn(file, args, { stdio, env });
    await once(child, 'spawn'); // rejects on 'error'
  } catch {
    return direct(ctx); // not installed, not executable: write directly
  }
  child.on('error', () => {}); // after the start, a failure only ends the paging (see below)

  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stdin = child.stdin!;
  // Quitting the pager early closes its stdin: what is left to write is dropped, quietly
  // (EPIPE is the person's choice, not an error).
  let open = true;
  stdin.on('error', () => {
    open = false;
  });
  child.once('exit', () => {
    open = false;
  });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!open) return callback();
      // The callback comes when the pipe took the chunk: backpressure from a slow pager.
      stdin.write(chunk, () => callback());
    },
    final(callback) {
      if (open) stdin.end();
      callback();
    },
  });
  return {
    stream,
    async done() {
      await new Promise<void>((resolve) => stream.end(resolve));
      await exited;
    },
  };
}
