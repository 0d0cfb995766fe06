/** Small wording helpers for messages meant for people. */

/** `1 file`, `3 files`: the count and the noun, plural when the count is not one. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/** The first few items of a list for a message, `a, b, c, …` when there are more. */
export function someOf(items: readonly string[], max = 5): string {
  return `${items.slice(0, max).join(', ')}${items.length > max ? ', …' : ''}`;
}

/**
 * C0/C1 control characters except tab and newline (ESC among them): text from the network
 * must never move the cursor or recolour the terminal, nor forge lines in a log.
 */
export const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Every control character (tab and newline too) written as `\xNN`, so it shows instead of acting. */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** At most `max` characters, ending in `…` when cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
