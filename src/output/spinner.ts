/**
 * Feedback while waiting, as gh's spinner: a line on stderr (`⠋ Fetching exercises… 3 pages,
 * 75 rows`) that appears only when the wait passes a threshold (~300 ms: a quick answer shows
 * nothing), only on a terminal, never with --quiet or --verbose (whose lines it would cut), and
 * is erased before anything else is written to the terminal and when the wait ends.
 */
import type { Context } from '../context.js';

/** How long a wait goes unmarked. */
export const SPINNER_DELAY_MS = 300;
const FRAME_MS = 100;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const ERASE = '\r\u001b[2K';

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
  let shown = false;
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    const line = `${FRAMES[frame++ % FRAMES.length]} ${label}`;
    err.write(`${ERASE}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    shown = true;
  };
  const erase = (): void => {
    if (shown) err.write(ERASE);
    shown = false;
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
