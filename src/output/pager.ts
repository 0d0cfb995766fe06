/**
 * Long output on a terminal goes through a pager, as git and gh do: EXERCISES_PAGER, PAGER, else
 * `less -FRX`; `cat`, empty or --no-pager for none. A pager that cannot start is no error.
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

export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const command = (env.EXERCISES_PAGER ?? env.PAGER ?? DEFAULT_PAGER).trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/** Characters that make a command shell syntax (git's rule): run through `sh -c`; else started directly, so a missing program is known first. */
const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[#~=%{}!\n]/;

function direct(ctx: PagerContext): Pager {
  return { stream: ctx.io.stdout, done: async () => {} };
}

/** Starts the pager when `enabled` and stdout is a terminal; else the output goes to stdout directly. */
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
  // Quitting the pager early closes its stdin: the rest is dropped quietly (EPIPE is the person's choice).
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
