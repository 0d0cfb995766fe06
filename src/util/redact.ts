/**
 * Keeping the API key out of everything shown, one redaction for every place a server's text
 * can land: `redact`/`redactorFor` for text that came from the network or holds a URL (error
 * messages, --verbose lines, JSON and media error bodies, the rate-limit headers the ledger
 * stores and `quota` prints), and `maskSecret` for showing which key is in use (`auth status`,
 * `config list`). In util/ so the cache layer, below http/, uses the same function.
 */

/** Keys at least this long are replaced wherever they occur; shorter ones only as whole words. */
export const REDACT_ANYWHERE_LENGTH = 8;
/** Keys shorter than this are shown as stars only; longer ones with MASK_SHOWN characters. */
export const MASK_MIN_LENGTH = 12;
const MASK_SHOWN = 4;

export const REDACTED = '***';

/** Characters a terminal sanitiser drops or a terminal does not show: C0, DEL, C1, zero-width and bidi controls. */
const INVISIBLE = '[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2069\\ufeff]';

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
 * A function that returns its text with every occurrence of `key` replaced by `***`. A key of
 * REDACT_ANYWHERE_LENGTH characters or more is replaced wherever it appears; a shorter one only
 * where it stands as a word of its own (no letter or digit right before or after it), so a
 * one-letter key does not turn "The API key is not valid" into "The API ***ey…" — the key still
 * never shows, as anything that is the key alone is replaced. Made once per key (a transport
 * redacts every line it logs).
 */
export function redactorFor(key: string | undefined): (text: string) => string {
  if (!key) return (text) => text;
  const steps = spellings(key).map((form): ((text: string) => string) => {
    if (form.length >= REDACT_ANYWHERE_LENGTH) {
      // Controls between its characters count as the key too: a sanitiser that later strips them would join it again.
      const split = new RegExp([...form].map(escapeRegExp).join(`${INVISIBLE}*`), 'gu');
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

/** `text` with the key redacted as redactorFor describes. */
export function redact(text: string, key: string | undefined): string {
  if (!key || !text) return text;
  return redactorFor(key)(text);
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
