/**
 * The one freshness model of the client's response cache and the team proxy (src/proxy/):
 * http-cache-semantics (RFC 9111) reads the answer's headers — no-store, no-cache, max-age,
 * Expires, Age, Vary, the validators — and its policy object (policy.toObject()) is stored
 * with the entry, beside the few headers a 304 may update (the policy is then made anew). Our
 * time to live (`cache-ttl`) applies only where the service says nothing of freshness; it is
 * applied when the entry is read, so a TTL configured later counts for what is stored already.
 *
 * How long an answer stays fresh is decided once, by the policy, when it is stored (or
 * confirmed by a 304), and kept as `freshUntil`: a cache hit compares two times and never
 * loads http-cache-semantics (3–11 ms to load in a fresh Node 20 process here). The policy
 * is loaded on the paths that send a request anyway: storing an answer and revalidating one.
 */
import type CachePolicy from 'http-cache-semantics';
import { type HeaderBag, headerText } from './headers.js';
import { loadCachePolicy } from '../vendor/http-cache-semantics.js';

type PolicyObject = CachePolicy.CachePolicyObject;

/** What an entry keeps to judge its freshness: the meta of its file (entry-file.ts). */
export interface Freshness {
  /** http-cache-semantics' policy of the answer: its validators, and its headers as a proxy answers with them. */
  policy: PolicyObject;
  /** The answer's headers that a 304 updates (KEPT_HEADERS): the policy is made anew from them and the 304's. */
  headers: Record<string, string>;
  /** When the answer arrived, or a 304 last confirmed it, ms since the epoch. */
  storedAt: number;
  /** Until when the policy calls it fresh, ms since the epoch; null when the service said nothing of freshness (the configured TTL applies). */
  freshUntil: number | null;
  /** The answer's Content-Language (a checked language tag list), so a cache hit can say it too. */
  language?: string;
}

/** The request an answer is judged against: the client sends no cache directives of its own, and the store key already names the URL. */
const CLIENT_REQUEST: CachePolicy.Request = { method: 'GET', url: '/', headers: {} };

/** Whether the headers say how long the answer stays fresh (or that it must not be reused unchecked). */
export function saysHowFresh(headers: HeaderBag): boolean {
  return /(^|,)\s*(max-age|s-maxage|no-store|no-cache)\b/i.test(headerText(headers, 'cache-control') ?? '') || headerText(headers, 'expires') !== undefined;
}

/**
 * The response headers an entry keeps: what freshness, validation and the answer's language
 * depend on, and its Content-Type, which the team proxy answers with (the policy's response
 * headers are made from these alone). Date and Age describe one response only: a 304 brings its own.
 */
const KEPT_HEADERS = ['cache-control', 'expires', 'pragma', 'etag', 'last-modified', 'vary', 'content-language', 'content-type'];

/** The kept headers as http-cache-semantics takes them: one string per name. */
function keptHeaders(headers: HeaderBag | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const text = headerText(headers, name);
    if (text !== undefined) out[name] = text;
  }
  return out;
}

/** The headers a new policy is made from: the kept ones, with this response's Date and Age. */
function policyHeaders(kept: Record<string, string>, headers: HeaderBag | undefined): Record<string, string> {
  const out = { ...kept };
  for (const name of ['date', 'age']) {
    const text = headerText(headers, name);
    if (text !== undefined) out[name] = text;
  }
  return out;
}

/**
 * The freshness of an answer with this policy, stored at `now`; undefined when it must not be
 * stored (no-store). The policy was made a moment ago on the real clock, so its age is the
 * answer's age on arrival (its Age header): the lifetime left is counted from `now`, the time
 * callers (and tests) give.
 */
async function freshnessOf(
  kept: Record<string, string>,
  headers: HeaderBag | undefined,
  now: number,
  request: CachePolicy.Request,
): Promise<{ freshness: Freshness; policy: CachePolicy } | undefined> {
  const Policy = await loadCachePolicy();
  const policy = new Policy(request, { status: 200, headers: policyHeaders(kept, headers) }, { shared: false });
  if (!policy.storable()) return undefined;
  const freshUntil = saysHowFresh(kept) ? now + Math.max(0, policy.maxAge() - policy.age()) * 1000 : null;
  const language = contentLanguage(kept);
  const freshness = { policy: policy.toObject(), headers: kept, storedAt: now, freshUntil, ...(language !== undefined ? { language } : {}) };
  return { freshness, policy };
}

/** A new answer (a 200) judged: its freshness to store, or undefined for no-store. */
export function freshnessFor(
  headers: HeaderBag | undefined,
  now: number,
  request: CachePolicy.Request = CLIENT_REQUEST,
): Promise<{ freshness: Freshness; policy: CachePolicy } | undefined> {
  return freshnessOf(keptHeaders(headers), headers, now, request);
}

/** Fresh: the policy's lifetime, or the TTL where the service said nothing, not yet over; an answer stored "in the future" (the clock went back) is stale. */
export function isFresh(stored: Freshness, now: number, ttlMs: number): boolean {
  return now >= stored.storedAt && now < (stored.freshUntil ?? stored.storedAt + ttlMs);
}

/** The policy kept with an entry, for its response headers (the proxy's answers). */
export async function storedPolicy(stored: Freshness): Promise<CachePolicy> {
  return (await loadCachePolicy()).fromObject(stored.policy);
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** Validators are sent back verbatim in If-None-Match / If-Modified-Since: printable ASCII only, bounded. */
function validator(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 1024 && /^[\x20-\x7e]+$/.test(value) ? value : undefined;
}

/** What a conditional request for the stored answer sends (its policy's revalidation headers). */
export async function validatorsOf(stored: Freshness, request: CachePolicy.Request = CLIENT_REQUEST): Promise<Validators> {
  const headers = (await storedPolicy(stored)).revalidationHeaders(request);
  const etag = validator(headers['if-none-match']);
  const lastModified = validator(headers['if-modified-since']);
  return { ...(etag !== undefined ? { etag } : {}), ...(lastModified !== undefined ? { lastModified } : {}) };
}

/**
 * After a 304: the stored answer judged anew from `now`, with its kept headers updated by the
 * 304's (RFC 9111 §4.3.4: a header the 304 sends replaces the stored one, so its new
 * Cache-Control or ETag counts, and validators it does not send stay); undefined when the
 * result says no-store.
 */
export function revalidated(
  stored: Freshness,
  headers: HeaderBag | undefined,
  now: number,
  request: CachePolicy.Request = CLIENT_REQUEST,
): Promise<{ freshness: Freshness; policy: CachePolicy } | undefined> {
  return freshnessOf({ ...stored.headers, ...keptHeaders(headers) }, headers, now, request);
}

/** Stored freshness as freshnessFor() makes it, or undefined for anything else (then the entry is dropped). */
export function parseFreshness(meta: Record<string, unknown>): Freshness | undefined {
  const { policy, headers, storedAt, freshUntil, language } = meta;
  if (typeof policy !== 'object' || policy === null || (policy as { v?: unknown }).v !== 1) return undefined;
  if (typeof headers !== 'object' || headers === null || !Object.values(headers).every((v) => typeof v === 'string')) return undefined;
  if (typeof storedAt !== 'number' || !Number.isFinite(storedAt)) return undefined;
  if (freshUntil !== null && (typeof freshUntil !== 'number' || !Number.isFinite(freshUntil))) return undefined;
  const lang = typeof language === 'string' ? languageList(language) : undefined;
  return {
    policy: policy as PolicyObject,
    headers: headers as Record<string, string>,
    storedAt,
    freshUntil,
    ...(lang !== undefined ? { language: lang } : {}),
  };
}

/**
 * A Content-Language value worth keeping: language tags (RFC 5646's letters, digits and
 * hyphens) separated by commas, bounded; anything else is dropped, since it reaches the terminal.
 */
function languageList(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text !== undefined && text.length <= 100 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*(\s*,\s*[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)*$/.test(text)
    ? text
    : undefined;
}

/** The answer's Content-Language, when it is a list of language tags. */
export function contentLanguage(headers: HeaderBag | undefined): string | undefined {
  return languageList(headerText(headers, 'content-language'));
}
