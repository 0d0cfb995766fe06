/**
 * Reading the response headers the cache and the ledger care about. Header maps come from
 * the transport with lower-case names (as Node and undici give them); values may repeat.
 */

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of a header, joined with `, ` as HTTP folds repeated fields; undefined when absent. */
export function headerText(headers: HeaderBag | undefined, name: string): string | undefined {
  const value = headers?.[name] ?? headers?.[name.toLowerCase()];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

export interface CacheControl {
  noStore: boolean;
  noCache: boolean;
  /** Seconds; a present but malformed max-age is 0 (stale at once), as RFC 9111 §4.2.1 advises. */
  maxAge?: number;
}

/** Splits on commas outside double quotes (`no-cache="a, b"` is one directive). */
function directives(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const c of value) {
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * The directives of a Cache-Control header that a private client cache obeys: no-store,
 * no-cache (in any form, with or without field names: revalidate every time) and max-age
 * (the first one wins). Directive names are case-insensitive.
 */
export function parseCacheControl(value: string | undefined): CacheControl {
  const result: CacheControl = { noStore: false, noCache: false };
  if (!value) return result;
  for (const directive of directives(value)) {
    const eq = directive.indexOf('=');
    const name = (eq === -1 ? directive : directive.slice(0, eq)).trim().toLowerCase();
    const arg =
      eq === -1
        ? undefined
        : directive
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    if (name === 'no-store') result.noStore = true;
    else if (name === 'no-cache') result.noCache = true;
    else if (name === 'max-age' && result.maxAge === undefined) {
      result.maxAge = arg !== undefined && /^\d+$/.test(arg) ? Number(arg) : 0;
    }
  }
  return result;
}

/** The `Age` header in seconds (0 when absent or malformed). */
export function ageSeconds(headers: HeaderBag | undefined): number {
  const text = headerText(headers, 'age')?.split(',')[0]?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
}

/**
 * Printable ASCII only, at most 200 characters: header values reach `quota`'s output and files.
 * `redact` (util/redact.ts, the key's) runs after the controls are stripped, so a key split by
 * control bytes is still found, and before the cut, so no part of a key is left at the end.
 */
export function safeHeaderValue(value: string, redact: (text: string) => string = (text) => text): string {
  return redact(value.replace(/[^\x20-\x7e]/g, '').trim()).slice(0, 200);
}
