/**
 * What the cache records about an answer when it stores it, and whether a stored answer is
 * still fresh. The rules of a private HTTP cache (RFC 9111) reduced to what this client
 * needs: `no-store` is never kept, `max-age` (less the answer's age on arrival) replaces
 * the configured time to live, `no-cache` is kept but revalidated every time, and the
 * ETag / Last-Modified validators are kept for a conditional request.
 */
import { type HeaderBag, ageSeconds, headerText, parseCacheControl } from './headers.js';

export interface EntryMeta {
  /** When the answer arrived (or was last confirmed by a 304), ms since the epoch. */
  storedAt: number;
  /** From max-age, already less the answer's age on arrival; absent: the configured TTL applies. */
  maxAgeMs?: number;
  noCache?: true;
  etag?: string;
  lastModified?: string;
  /** The answer's Content-Language (a checked language tag list), so a cache hit can say it too. */
  language?: string;
}

/** Validators are sent back verbatim in If-None-Match / If-Modified-Since: printable ASCII only, bounded. */
function validator(value: string | undefined): string | undefined {
  return value !== undefined && value.length > 0 && value.length <= 1024 && /^[\x20-\x7e]+$/.test(value) ? value : undefined;
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

/** How old the answer already was when it arrived: the larger of its Age and now − Date. */
function ageOnArrivalMs(headers: HeaderBag | undefined, now: number): number {
  const date = Date.parse(headerText(headers, 'date') ?? '');
  const apparent = Number.isNaN(date) ? 0 : Math.max(0, now - date);
  return Math.max(ageSeconds(headers) * 1000, apparent);
}

/**
 * The metadata to store for an answer with these headers, or undefined when it must not be
 * stored (no-store). `previous` is the stored entry a 304 confirms: its validators and
 * directives stay unless the 304 sends new ones.
 */
export function entryMetaFor(headers: HeaderBag | undefined, now: number, previous?: EntryMeta): EntryMeta | undefined {
  const cacheControlText = headerText(headers, 'cache-control');
  const cc = parseCacheControl(cacheControlText);
  if (cc.noStore) return undefined;
  const meta: EntryMeta = { storedAt: now };
  if (cacheControlText === undefined && previous) {
    if (previous.maxAgeMs !== undefined) meta.maxAgeMs = previous.maxAgeMs;
    if (previous.noCache) meta.noCache = true;
  } else {
    if (cc.maxAge !== undefined) meta.maxAgeMs = Math.max(0, cc.maxAge * 1000 - ageOnArrivalMs(headers, now));
    if (cc.noCache) meta.noCache = true;
  }
  const etag = validator(headerText(headers, 'etag')) ?? previous?.etag;
  const lastModified = validator(headerText(headers, 'last-modified')) ?? previous?.lastModified;
  if (etag !== undefined) meta.etag = etag;
  if (lastModified !== undefined) meta.lastModified = lastModified;
  const language = contentLanguage(headers) ?? previous?.language;
  if (language !== undefined) meta.language = language;
  return meta;
}

/** Stored metadata as written by entryMetaFor, or undefined for anything else (then the entry is dropped). */
export function parseEntryMeta(value: unknown): EntryMeta | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.storedAt !== 'number' || !Number.isFinite(v.storedAt)) return undefined;
  const meta: EntryMeta = { storedAt: v.storedAt };
  if (v.maxAgeMs !== undefined) {
    if (typeof v.maxAgeMs !== 'number' || !(v.maxAgeMs >= 0)) return undefined;
    meta.maxAgeMs = v.maxAgeMs;
  }
  if (v.noCache === true) meta.noCache = true;
  if (typeof v.etag === 'string') meta.etag = v.etag;
  if (typeof v.lastModified === 'string') meta.lastModified = v.lastModified;
  const language = typeof v.language === 'string' ? languageList(v.language) : undefined;
  if (language !== undefined) meta.language = language;
  return meta;
}

/**
 * Fresh: younger than its max-age, or than the TTL when the server gave none, and not
 * no-cache. An answer stored "in the future" (the clock went back) is stale.
 */
export function isFresh(meta: EntryMeta, now: number, ttlMs: number): boolean {
  if (meta.noCache) return false;
  const age = now - meta.storedAt;
  return age >= 0 && age < (meta.maxAgeMs ?? ttlMs);
}
