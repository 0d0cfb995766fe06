/**
 * What response headers say, for the response cache, the team proxy and the request ledger: freshness by
 * http-cache-semantics (RFC 9111), decided when an answer is stored and kept as `freshUntil` (our
 * `cache-ttl` applies where the service says nothing), and the rate-limit headers the ledger keeps.
 */
import type CachePolicy from 'http-cache-semantics';
import { loadCachePolicy } from '../vendor/load.js';
import { type Freshness, languageList } from './store-files.js';

export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every value of a header, joined with `, `; undefined when absent. */
export function headerText(headers: HeaderBag | undefined, name: string): string | undefined {
  const value = headers?.[name] ?? headers?.[name.toLowerCase()];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}

/** Printable ASCII, at most 200 characters (values reach files and output); `redact` runs after controls go and before the cut. */
export function safeHeaderValue(value: string, redact: (text: string) => string = (text) => text): string {
  return redact(value.replace(/[^\x20-\x7e]/g, '').trim()).slice(0, 200);
}

export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets (or when, as the service sends it). */
  reset?: number;
  /** Every rate-limit header as received, cleaned and capped. */
  headers: Record<string, string>;
}

const RATE_LIMIT_NAME = /^(x-)?ratelimit(-[a-z0-9-]+)?$/;

/** The first whole number in a header value (`100`, `100, 100;w=3600`). */
function firstNumber(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^\s*(\d+)/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** A parameter of the structured `RateLimit` field. */
function structuredParam(value: string | undefined, names: readonly string[]): number | undefined {
  if (value === undefined) return undefined;
  for (const name of names) {
    const match = new RegExp(`(?:^|[,;\\s])${name}=(\\d+)`).exec(value);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** The rate-limit headers of a response, passed through `redact`; undefined when none. */
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
  return { headers: raw, limit: pick('limit', ['limit']), remaining: pick('remaining', ['remaining', 'r']), reset: pick('reset', ['reset', 't']) };
}

/** The request an answer is judged against: the client sends no cache directives, and the key names the URL. */
const CLIENT_REQUEST: CachePolicy.Request = { method: 'GET', url: '/', headers: {} };

/** Whether the headers say how long the answer stays fresh (or that it must not be reused unchecked). */
export function saysHowFresh(headers: HeaderBag): boolean {
  return /(^|,)\s*(max-age|s-maxage|no-store|no-cache)\b/i.test(headerText(headers, 'cache-control') ?? '') || headerText(headers, 'expires') !== undefined;
}

/** The headers an entry keeps: what freshness, validation and language depend on, and the Content-Type. */
const KEPT_HEADERS = ['cache-control', 'expires', 'pragma', 'etag', 'last-modified', 'vary', 'content-language', 'content-type'];

/** The `names` of `headers`, one string each, added to `into`. */
function pickHeaders(headers: HeaderBag | undefined, names: readonly string[], into: Record<string, string> = {}): Record<string, string> {
  for (const name of names) {
    const text = headerText(headers, name);
    if (text !== undefined) into[name] = text;
  }
  return into;
}

/** An answer judged: the freshness to store and its policy; undefined when it must not be stored (no-store). */
type Judged = { freshness: Freshness; policy: CachePolicy } | undefined;

/** An answer with the `kept` headers (and its own Date and Age) judged at `now`, its lifetime left counted from `now`. */
async function freshnessOf(kept: Record<string, string>, headers: HeaderBag | undefined, now: number, request: CachePolicy.Request): Promise<Judged> {
  const Policy = await loadCachePolicy();
  const policy = new Policy(request, { status: 200, headers: pickHeaders(headers, ['date', 'age'], { ...kept }) }, { shared: false });
  if (!policy.storable()) return undefined;
  const freshUntil = saysHowFresh(kept) ? now + Math.max(0, policy.maxAge() - policy.age()) * 1000 : null;
  const language = contentLanguage(kept);
  const freshness = { policy: policy.toObject(), headers: kept, storedAt: now, freshUntil, ...(language !== undefined ? { language } : {}) };
  return { freshness, policy };
}

/** A new answer (a 200) judged: its freshness to store, or undefined for no-store. */
export function freshnessFor(headers: HeaderBag | undefined, now: number, request: CachePolicy.Request = CLIENT_REQUEST): Promise<Judged> {
  return freshnessOf(pickHeaders(headers, KEPT_HEADERS), headers, now, request);
}

/** The policy kept with an entry, for the proxy's response headers. */
export async function storedPolicy(stored: Freshness): Promise<CachePolicy> {
  return (await loadCachePolicy()).fromObject(stored.policy);
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** Validators are sent back verbatim: printable ASCII only, bounded. */
function validator(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 && /^[\x20-\x7e]+$/.test(value) ? value : undefined;
}

/** What a conditional request for the stored answer sends. */
export async function validatorsOf(stored: Freshness, request: CachePolicy.Request = CLIENT_REQUEST): Promise<Validators> {
  const headers = (await storedPolicy(stored)).revalidationHeaders(request);
  const etag = validator(headers['if-none-match']);
  const lastModified = validator(headers['if-modified-since']);
  return { ...(etag !== undefined ? { etag } : {}), ...(lastModified !== undefined ? { lastModified } : {}) };
}

/** After a 304: the stored answer judged anew, the 304's headers replacing the stored ones (RFC 9111 §4.3.4); undefined for no-store. */
export function revalidated(stored: Freshness, headers: HeaderBag | undefined, now: number, request: CachePolicy.Request = CLIENT_REQUEST): Promise<Judged> {
  return freshnessOf(pickHeaders(headers, KEPT_HEADERS, { ...stored.headers }), headers, now, request);
}

/** The answer's Content-Language, when it is a list of language tags. */
export function contentLanguage(headers: HeaderBag | undefined): string | undefined {
  return languageList(headerText(headers, 'content-language'));
}
