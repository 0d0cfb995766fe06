/**
 * What completion may offer: printable text of a sane length. An id or name from the service
 * (or a catalogue) may hold escape sequences; zsh prints candidates and descriptions raw, so
 * `ESC]0;title BEL` retitled the window and `ESC[2J` cleared the screen on a TAB. Such entries
 * are kept out of completion (they can still be typed, or given through `-`), as are entries
 * over COMPLETION_MAX_CHARS characters, which only slow every TAB down.
 */

/** Longest id or name offered by completion. */
export const COMPLETION_MAX_CHARS = 256;

/** C0 controls, DEL, C1 controls, and the bidi marks, embeddings, overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Whether `text` may be offered on a command line: printable, at most COMPLETION_MAX_CHARS characters. */
export function isCompletable(text: string): boolean {
  return text.length <= COMPLETION_MAX_CHARS && !UNPRINTABLE.test(text);
}
