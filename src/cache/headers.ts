/**
 * Reading the response headers the cache and the ledger care about. Header maps come from
 * the transport with lower-case names (as Node and undici give them); values may repeat.
 * What they say of freshness is http-cache-semantics' to read (freshness.ts); what they say
 * of the rate limit is read here: the IETF `RateLimit-Limit/-Remaining/-Reset` (and the newer
 * single `RateLimit` field), and the older `X-RateLimit-*` names. The ledger keeps the last
 * ones seen per connection for `quota` and `--verbose`.
 */

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of a header, joined with `, ` as HTTP folds repeated fields; undefined when absent. */
export function headerText(headers: HeaderBag | undefined, name: string): string | undefined {
  const value = headers?.[name] ?? headers?.[name.toLowerCase()];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

/**
 * Printable ASCII only, at most 200 characters: header values reach `quota`'s output and files.
 * `redact` (util/text.ts, the key's) runs after the controls are stripped, so a key split by
 * control bytes is still found, and before the cut, so no part of a key is left at the end.
 */
export function safeHeaderValue(value: string, redact: (text: string) => string = (text) => text): string {
  return redact(value.replace(/[^\x20-\x7e]/g, '').trim()).slice(0, 200);
}

export interface RateLimitInfo {
  /** Requests allowed in the window, as the service last said. */
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets (or the time it resets, as the service sends it). */
  reset?: number;
  /** Every rate-limit header as received (lower-case names, printable ASCII, capped in length). */
  headers: Record<string, string>;
}

const RATE_LIMIT_NAME = /^(x-)?ratelimit(-[a-z0-9-]+)?$/;

/** The first whole number in a header value (`100`, `100, 100;w=3600`). */
function firstNumber(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d+)/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** A parameter of the structured `RateLimit` field: `limit=100, remaining=5, reset=30` or `"default";r=5;t=30`. */
function structuredParam(value: string | undefined, names: readonly string[]): number | undefined {
  if (value === undefined) return undefined;
  for (const name of names) {
    const match = new RegExp(`(?:^|[,;\\s])${name}=(\\d+)`).exec(value);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** The rate-limit headers of a response, names and values passed through `redact`; undefined when it has none. */
export function rateLimitHeaders(headers: HeaderBag | undefined, redact: (text: string) => string = (text) => text): RateLimitInfo | undefined {
  if (!headers) return undefined;
  const raw: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (!RATE_LIMIT_NAME.test(lower)) continue;
    const text = headerText(headers, name);
    if (text !== undefined) raw[redact(lower)] = safeHeaderValue(text, redact);
  }
  if (Object.keys(raw).length === 0) return undefined;
  const pick = (suffix: string, structured: readonly string[]): number | undefined =>
    firstNumber(raw[`ratelimit-${suffix}`]) ?? structuredParam(raw.ratelimit, structured) ?? firstNumber(raw[`x-ratelimit-${suffix}`]);
  const info: RateLimitInfo = { headers: raw };
  const limit = pick('limit', ['limit']);
  const remaining = pick('remaining', ['remaining', 'r']);
  const reset = pick('reset', ['reset', 't']);
  if (limit !== undefined) info.limit = limit;
  if (remaining !== undefined) info.remaining = remaining;
  if (reset !== undefined) info.reset = reset;
  return info;
}
