/** Text made fit to show: wording helpers, the one sanitiser for text from the network, and the one key redaction. */

export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

export function someOf(items: readonly string[], max = 5): string {
  return `${items.slice(0, max).join(', ')}${items.length > max ? ', …' : ''}`;
}

export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/*
 * The sanitiser: text from the network must never move the cursor, retitle or clear the terminal,
 * or forge lines. cleanText / oneLine drop the unsafe; escapeUnsafe shows it as `\xNN` / `\uNNNN`.
 */
/** ECMA-48 sequences, whole (CSI; OSC, DCS, SOS, PM, APC up to BEL or ST or the end; any other ESC). */
const ESCAPE_SEQUENCE =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/**
 * Characters that act instead of showing, or show nothing and can spoof: controls, DEL, bidi
 * marks, separators, invisible format characters. Joiners and variation selectors stay (emoji need them).
 */
const BEYOND_C0 =
  '\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb';

export const UNSAFE_CHARS = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`, 'g');
const UNSAFE_BUT_TAB_NEWLINE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${BEYOND_C0}]`, 'g');
/** Unsafe characters beyond C0, which JSON.stringify leaves raw (global). */
export const UNSAFE_BEYOND_C0 = new RegExp(`[${BEYOND_C0}]`, 'g');
const ANY_UNSAFE = new RegExp(`[\\u0000-\\u001f${BEYOND_C0}]`);

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

export function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Every unsafe character (tab and newline too) written as `\xNN` or `\uNNNN`, so it shows instead of acting. */
export function escapeUnsafe(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE_CHARS, escapeChar) : text;
}

/* Redaction: `redactorFor` for text from the network or holding a URL, `maskSecret` to show which key is in use. */

/** Keys at least this long are replaced wherever they occur; shorter ones only as whole words. */
export const REDACT_ANYWHERE_LENGTH = 8;
/** Keys shorter than this are shown as stars only; longer ones with MASK_SHOWN characters. */
export const MASK_MIN_LENGTH = 12;
const MASK_SHOWN = 4;

export const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function spellings(key: string): string[] {
  const forms = new Set([key, encodeURIComponent(key), new URLSearchParams({ k: key }).toString().slice(2)]);
  // Longest first, so a longer encoded form is not left half replaced.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every occurrence of `key` by `***`: anywhere when it is REDACT_ANYWHERE_LENGTH long or more,
 * else only as a word of its own (a one-letter key must not turn "key" into "***ey").
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

/** `sa…um`: enough to recognise a key, not to use it (stars only when shorter than MASK_MIN_LENGTH). */
export function maskSecret(value: string): string {
  if (value.length < MASK_MIN_LENGTH) return '*'.repeat(Math.min(value.length, MASK_MIN_LENGTH));
  const half = MASK_SHOWN / 2;
  return `${value.slice(0, half)}…${value.slice(-half)}`;
}
