/**
 * Which terminal a picker draws on. At a terminal (stdin and stdout both one), the run's own
 * streams. With `--pick` in a pipeline (`exercises query --pick --format jsonl | exercises
 * download -`), stdout carries the answer, so the picker does as fzf does: it opens the
 * controlling terminal, /dev/tty, reads the keys there and draws there, and nothing of it
 * reaches the pipe. No terminal to open (a cron job, a CI runner, Windows): undefined.
 */
import { openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';
import type { Context } from '../context.js';
import type { PromptTerminal } from './picker-screen.js';

/** The terminal to prompt on, and how to let it go when the picker is done. */
export interface OpenedTerminal extends PromptTerminal {
  close(): void;
}

/** The streams of a run at a terminal (nothing to close). */
function ownStreams(ctx: Pick<Context, 'io'>): OpenedTerminal {
  const { stdin, stdout, columns } = ctx.io;
  const rows = (stdout as { rows?: unknown }).rows;
  return { input: stdin, output: stdout, columns, rows: typeof rows === 'number' && rows > 0 ? rows : 24, close() {} };
}

/** /dev/tty for reading keys and drawing, or undefined when this process has no controlling terminal. */
function controllingTerminal(): OpenedTerminal | undefined {
  let input: ReadStream;
  let output: WriteStream;
  try {
    input = new ReadStream(openSync('/dev/tty', 'r'));
  } catch {
    return undefined;
  }
  try {
    output = new WriteStream(openSync('/dev/tty', 'w'));
  } catch {
    input.destroy();
    return undefined;
  }
  return {
    input,
    output,
    columns: output.columns > 0 ? output.columns : 80,
    rows: output.rows > 0 ? output.rows : 24,
    close() {
      input.destroy();
      output.destroy();
    },
  };
}

/** The run's streams when both are a terminal, else (`--pick` asked for it) the controlling terminal. */
export function promptTerminal(ctx: Pick<Context, 'io'>, options: { orDevTty: boolean }): OpenedTerminal | undefined {
  if (ctx.io.stdinIsTTY && ctx.io.stdoutIsTTY) return ownStreams(ctx);
  return options.orDevTty ? controllingTerminal() : undefined;
}
