/**
 * Feedback while waiting, as gh's spinner: a line on stderr (`⠋ Fetching exercises… 3 pages,
 * 75 rows`) that appears only when the wait passes a threshold (~300 ms: a quick answer shows
 * nothing), only on a terminal, never with --quiet or --verbose (whose lines it would cut), and
 * is erased (with spaces: it writes no escape sequence) before anything else is written to the
 * terminal and when the wait ends.
 */
import type { Context } from '../context.js';

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

export interface SpinnerOptions {
  delayMs?: number;
}

export function startSpinner(ctx: Pick<Context, 'io' | 'globals'>, text: string, options: SpinnerOptions = {}): Spinner {
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet || ctx.globals.verbose) return NONE;
  const err = ctx.io.stderr;
  const width = Math.max(ctx.io.columns - 1, 10);
  let label = text;
  let frame = 0;
  let shown = 0; // columns the line takes on screen
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const full = `${FRAMES[frame++ % FRAMES.length]} ${label}`;
    const line = full.length > width ? `${full.slice(0, width - 1)}…` : full;
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
