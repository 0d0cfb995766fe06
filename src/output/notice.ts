/**
 * What a command says on stderr while it works: notices wrapped to the terminal; the spinner of a wait
 * (past 300 ms, on a terminal, never with --quiet or --verbose, erased with spaces); and, once at the end,
 * the note that the service answered in another language than asked.
 */
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { write } from './streams.js';
import { type StderrShape, type WrapOptions, noticeLines, progressText, wrap } from './wrap.js';

export interface NoticeTarget extends StderrShape {
  stderr: Pick<Writable, 'write'>;
}

/** Writes `text` and a newline to stderr, fitted to it. */
export function writeNotice(io: NoticeTarget, text: string, options: WrapOptions = {}): void {
  io.stderr.write(`${noticeLines(text, io, options)}\n`);
}

/** How long a wait goes unmarked. */
export const SPINNER_DELAY_MS = 300;
const FRAME_MS = 100;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  update(text: string): void;
  /** Erases the line for a moment (before other output); it comes back at the next frame. */
  clear(): void;
  stop(): void;
}

const NONE: Spinner = { update() {}, clear() {}, stop() {} };

export function startSpinner(ctx: Pick<Context, 'io' | 'globals'>, text: string, options: { delayMs?: number } = {}): Spinner {
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet || ctx.globals.verbose) return NONE;
  const err = ctx.io.stderr;
  let label = text;
  let frame = 0;
  let shown = 0; // columns the line takes on screen
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const line = progressText(`${FRAMES[frame++ % FRAMES.length]} ${label}`, ctx.io.columns);
    // Spaces, not an erase sequence, cover a longer line before.
    err.write(`\r${line}${' '.repeat(Math.max(0, shown - line.length))}`);
    shown = line.length;
  };
  const erase = (): void => {
    if (shown > 0) err.write(`\r${' '.repeat(shown)}\r`);
    shown = 0;
  };
  const start = setTimeout(() => {
    draw();
    timer = setInterval(draw, FRAME_MS);
    timer.unref();
  }, options.delayMs ?? SPINNER_DELAY_MS);
  start.unref();
  return {
    update(next) {
      label = next;
    },
    clear: erase,
    stop() {
      clearTimeout(start);
      if (timer) clearInterval(timer);
      timer = undefined;
      erase();
    },
  };
}

function primary(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** Whether Content-Language `answered` has a tag of the primary language asked (`en-GB` answers `en-US`). */
export function answersInLanguage(asked: string, answered: string): boolean {
  return answered.split(',').some((tag) => primary(tag) === primary(asked));
}

/** The one line: `Note: the service has no fr-FR text; the answer is in en-GB.` */
export function languageNote(asked: string, answered: string): string {
  return `Note: the service has no ${asked} text; the answer is in ${answered}.`;
}

/** The run's note for an answer in another language, said once when the run ends. */
export function languageNoter(ctx: Pick<Context, 'io' | 'globals' | 'onExit'>): (asked: string, answered: string) => void {
  let note: string | undefined;
  ctx.onExit(async () => {
    if (note !== undefined && !ctx.globals.quiet) await write(ctx.io.stderr, `${wrap(note, ctx.io.columns)}\n`);
  });
  return (asked, answered) => {
    if (note === undefined && !answersInLanguage(asked, answered)) note = languageNote(asked, answered);
  };
}
