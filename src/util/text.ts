/**
 * Text made fit to show: small wording helpers for messages meant for people, the one
 * sanitiser for text that comes from the network and reaches a terminal or a file name, and
 * the one redaction that keeps the API key out of everything shown.
 */

/** `1 file`, `3 files`: the count and the noun, plural when the count is not one. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/** The first few items of a list for a message, `a, b, c, …` when there are more. */
export function someOf(items: readonly string[], max = 5): string {
  return `${items.slice(0, max).join(', ')}${items.length > max ? ', …' : ''}`;
}

/** At most `max` characters, ending in `…` when cut. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/*
 * The sanitiser: text from the network must never move the cursor, retitle or clear the
 * terminal, forge lines in a log, or reorder what a person reads. cleanText / oneLine drop the
 * unsafe (cells, cards, csv/tsv); escapeUnsafe shows it as `\xNN` / `\uNNNN` (an id quoted in a
 * message, where a person must see exactly what the service sent).
 */

/**
 * ECMA-48 sequences, whole: CSI; OSC, DCS, SOS, PM and APC strings (7- or 8-bit) up to BEL or
 * ST, or to the end of the text when unterminated, as a terminal would swallow them; any other
 * `ESC` with its intermediates and final byte.
 */
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/**
 * Characters that act instead of showing, or show nothing and can spoof: C0 and C1 controls,
 * DEL, bidi controls and marks, line and paragraph separators, zero-width and other invisible
 * format characters. Joiners (U+200C/D) and variation selectors stay: scripts and emoji need them.
 */
const BEYOND_C0 =
  '\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb';

/** One unsafe character (global). */
export const UNSAFE_CHARS = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, 'g');
/** Unsafe characters other than tab and newline (global). */
const UNSAFE_BUT_TAB_NEWLINE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`, 'g');
/** Unsafe characters beyond C0, which JSON.stringify leaves raw (global). */
export const UNSAFE_BEYOND_C0 = new RegExp(`[${BEYOND_C0}]`, 'g');
const ANY_UNSAFE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`);

/** True when the text holds anything the sanitiser would remove or escape. */
export function hasUnsafe(text: string): boolean {
  return ANY_UNSAFE.test(text);
}

/** Terminal-safe text that may span lines: escape sequences and unsafe characters removed; tabs and newlines kept. */
export function cleanText(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text; // the common case costs one scan
  return text.replace(ESCAPE_SEQUENCE, '').replace(UNSAFE_BUT_TAB_NEWLINE, '');
}

/** One line of terminal-safe text: as cleanText, with tabs and line breaks as spaces. */
export function oneLine(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/[\t\n\r\u2028\u2029]/g, ' ')
    .replace(UNSAFE_CHARS, '');
}

/** `\x1b`, `\u202e`: how escapeUnsafe shows one character. */
export function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every unsafe character (tab and newline too) written as `\xNN` or `\uNNNN`, so it shows instead of acting. */
export function escapeUnsafe(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE_CHARS, escapeChar) : text;
}

/*
 * Redaction: `redactorFor` for any text that came from the network or holds a URL,
 * `maskSecret` for showing which key is in use. In util/ so the cache layer, below http/, uses it.
 */

/** Keys at least this long are replaced wherever they occur; shorter ones only as whole words. */
export const REDACT_ANYWHERE_LENGTH = 8;
/** Keys shorter than this are shown as stars only; longer ones with MASK_SHOWN characters. */
export const MASK_MIN_LENGTH = 12;
const MASK_SHOWN = 4;

export const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The key as it may appear in text: as is, and as encoded in a URL path or query. */
function spellings(key: string): string[] {
  const forms = new Set([key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2)]);
  // Longest first, so a longer encoded form is not left half replaced.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every occurrence of `key` by `***`. A key of REDACT_ANYWHERE_LENGTH characters or
 * more is replaced wherever it appears; a shorter one only as a word of its own, so a one-letter
 * key does not turn "The API key is not valid" into "The API ***ey…". Made once per key.
 */
export function redactorFor(key: string | undefined): (text: string) => string {
  if (!key) return (text) => text;
  const steps = spellings(key).map((form): ((text: string) => string) => {
    if (form.length >= REDACT_ANYWHERE_LENGTH) {
      // Controls between its characters count as the key too: a sanitiser that later strips them would join it again.
      const split = new RegExp([...form].map(escapeRegExp).join(`[\\u0000-\\u001f${BEYOND_C0}]*`), 'gu');
      return (text) => (text.includes(form) ? text.split(form).join(REDACTED) : text).replace(split, REDACTED);
    }
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])`, 'gu');
    return (text) => text.replace(pattern, REDACTED);
  });
  return (text) => {
    let out = text;
    for (const step of steps) out = step(out);
    return out;
  };
}

/**
 * `sa…um`: enough to recognise a key, not enough to use it — at most MASK_SHOWN characters
 * of it, none for a key shorter than MASK_MIN_LENGTH.
 */
export function maskSecret(value: string): string {
  if (value.length < MASK_MIN_LENGTH) return '*'.repeat(Math.min(value.length, MASK_MIN_LENGTH));
  const half = MASK_SHOWN / 2;
  return `${value.slice(0, half)}…${value.slice(-half)}`;
}
