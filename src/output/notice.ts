/**
 * What a command says on stderr while it works, never on stdout:
 * - notices: wrapped to the terminal as errors are (wrap.ts noticeLines), whole in a pipe;
 * - the spinner of a wait, as gh's (`⠋ Fetching exercises… 3 pages, 75 rows`): only past ~300 ms
 *   (a quick answer shows nothing), only on a terminal, never with --quiet or --verbose (whose
 *   lines it would cut), erased with spaces (it writes no escape sequence);
 * - the note that the service answered in another language than asked (Content-Language, cache
 *   hits included): once, when the command ends, never with --quiet.
 */
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { write } from './streams.js';
import { type StderrShape, type WrapOptions, noticeLines, progressText, wrap } from './wrap.js';

export interface NoticeTarget extends StderrShape {
  stderr: Pick<Writable, 'write'>;
}

/** Writes `text` (one or more lines) and a newline to stderr, fitted to it. */
export function writeNotice(io: NoticeTarget, text: string, options: WrapOptions = {}): void {
  io.stderr.write(`${noticeLines(text, io, options)}\n`);
}

/** How long a wait goes unmarked. */
export const SPINNER_DELAY_MS = 300;
const FRAME_MS = 100;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  /** New text for the line (e.g. a count of pages); shown at the next frame. */
  update(text: string): void;
  /** Erases the line for a moment (before output goes to the same terminal); it comes back at the next frame. */
  clear(): void;
  /** Erases the line for good. */
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
    // Spaces, not an erase sequence, cover a longer line before: the spinner writes no escape sequence at all.
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

/** The primary language of a tag, lower-cased: `en` of `en-GB`. */
function primary(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** Whether `answered` (Content-Language: a tag or a comma list) has a tag of the primary language asked (`en-GB` answers `en-US`). */
export function answersInLanguage(asked: string, answered: string): boolean {
  return answered.split(',').some((tag) => primary(tag) === primary(asked));
}

/** The one line: `Note: the service has no fr-FR text; the answer is in en-GB.` */
export function languageNote(asked: string, answered: string): string {
  return `Note: the service has no ${asked} text; the answer is in ${answered}.`;
}

/** A noteLanguage for the run's API client: the first answer in another language, noted when the run ends (never cutting a spinner or a table). */
export function languageNoter(ctx: Pick<Context, 'io' | 'globals' | 'onExit'>): (asked: string, answered: string) => void {
  let note: string | undefined;
  ctx.onExit(async () => {
    if (note !== undefined && !ctx.globals.quiet) await write(ctx.io.stderr, `${wrap(note, ctx.io.columns)}\n`);
  });
  return (asked, answered) => {
    if (note === undefined && !answersInLanguage(asked, answered)) note = languageNote(asked, answered);
  };
}
