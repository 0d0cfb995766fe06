/**
 * The cache policy of one JSON GET, in one place, with the request itself left to the
 * caller (`fetch`): the API client passes a function that sends the request through the
 * transport, so a cache hit never loads or touches HTTP code.
 *
 * - `normal`: a fresh entry (or a fresh full record, via `fallback`) answers; a stale one
 *   with validators is revalidated (If-None-Match / If-Modified-Since; a 304 refreshes it);
 *   otherwise the answer is fetched and stored.
 * - `refresh` (--refresh): fetched anew without validators, and stored.
 * - `no-cache` (--no-cache): fetched; the cache is neither read nor written.
 * - `offline` (--offline): answered from the cache alone, stale entries included; a miss
 *   is a NetworkError (exit 6) naming what is missing.
 */
import { NetworkError } from '../errors.js';
import type { HeaderBag } from './headers.js';
import { type Validators, contentLanguage } from './freshness.js';
import type { CacheLookup, ResponseCache } from './response-cache.js';

export type CacheMode = 'normal' | 'refresh' | 'no-cache' | 'offline';

/** Sent as If-None-Match / If-Modified-Since (the stored policy's revalidation headers). */
export type { Validators };

/** What `fetch` resolves to: a 200 with its parsed body, or a 304 (only ever to a conditional request). */
export type FetchResult = { status: 200; body: unknown; headers: HeaderBag } | { status: 304; headers: HeaderBag };

/** How the answer was had, for --verbose: `cache hit`, `revalidated`, `miss`… */
export type CacheOutcome = 'hit' | 'stale hit (offline)' | 'revalidated' | 'miss' | 'refreshed' | 'bypassed';

export interface CachedGetOptions {
  cache: ResponseCache;
  key: string;
  mode: CacheMode;
  ttlMs: number;
  /** Sends the request, conditional when validators are given; errors (and the budget) throw. */
  fetch: (validators: Validators) => Promise<FetchResult>;
  /** Another cached source of the same answer (a full record by id or name), asked when the entry itself is not fresh. */
  fallback?: () => Promise<CacheLookup>;
  /** After a 200 or a 304: store what the answer also tells (its full records), with its headers. */
  onAnswer?: (body: unknown, headers: HeaderBag) => Promise<void>;
  /** The request in words, for the --offline miss: `GET /exercise/Push_Up (de-DE)`. */
  what: string;
  /** ms since the epoch; Date.now by default. */
  now?: () => number;
}

export interface CachedAnswer {
  body: unknown;
  outcome: CacheOutcome;
  /** The Content-Language it was answered in (stored with the entry for a cache hit); undefined when not said. */
  language?: string;
}

/** The answer, with the language it came in when that is known. */
function answered(body: unknown, outcome: CacheOutcome, language: string | undefined): CachedAnswer {
  return language !== undefined ? { body, outcome, language } : { body, outcome };
}

export async function cachedGet(options: CachedGetOptions): Promise<CachedAnswer> {
  const { cache, key, mode, ttlMs } = options;
  const now = options.now ?? Date.now;

  if (mode === 'no-cache') return fetched(await fetchBody(options, {}), 'bypassed');
  if (mode === 'refresh') return fetched(await fetchAndStore(options, {}, now), 'refreshed');

  const own = await cache.get(key, { now: now(), ttlMs });
  if (own.status === 'fresh') return answered(own.body, 'hit', own.language);
  const other = options.fallback ? await options.fallback() : ({ status: 'miss' } as const);
  if (other.status === 'fresh') return answered(other.body, 'hit', other.language);

  if (mode === 'offline') {
    const stale = own.status === 'stale' ? own : other.status === 'stale' ? other : undefined;
    if (stale) return answered(stale.body, 'stale hit (offline)', stale.language);
    throw new NetworkError(`--offline: the cache holds no answer to ${options.what}.`, {
      hint: 'Run the command once without --offline to fetch and cache it.',
      details: { request: options.what },
    });
  }

  if (own.status === 'stale' && (own.etag !== undefined || own.lastModified !== undefined)) {
    const validators: Validators = {
      ...(own.etag !== undefined ? { etag: own.etag } : {}),
      ...(own.lastModified !== undefined ? { lastModified: own.lastModified } : {}),
    };
    const answer = await options.fetch(validators);
    if (answer.status === 304) {
      const refreshed = await cache.refresh(key, { headers: answer.headers, now: now() });
      if (refreshed.status === 'fresh') {
        await options.onAnswer?.(refreshed.body, answer.headers);
        return answered(refreshed.body, 'revalidated', contentLanguage(answer.headers) ?? own.language);
      }
      // The entry went (cleared, or found corrupt) while the request was out: ask again, unconditionally.
      return fetched(await fetchAndStore(options, {}, now), 'miss');
    }
    return fetched(await store(options, answer, now), 'miss');
  }
  return fetched(await fetchAndStore(options, {}, now), 'miss');
}

/** A fetched answer: its body and the language its headers named. */
interface Fetched {
  body: unknown;
  headers: HeaderBag;
}

function fetched(answer: Fetched, outcome: CacheOutcome): CachedAnswer {
  return answered(answer.body, outcome, contentLanguage(answer.headers));
}

async function fetchBody(options: CachedGetOptions, validators: Validators): Promise<Fetched> {
  const answer = await options.fetch(validators);
  if (answer.status === 304) throw unexpected304(options.what);
  return answer;
}

async function fetchAndStore(options: CachedGetOptions, validators: Validators, now: () => number): Promise<Fetched> {
  const answer = await options.fetch(validators);
  if (answer.status === 304) throw unexpected304(options.what);
  return store(options, answer, now);
}

/** Stores the answer behind the caller's back (ResponseCache.putLater: written while it is used, awaited at exit). */
async function store(options: CachedGetOptions, answer: Fetched, now: () => number): Promise<Fetched> {
  options.cache.putLater(options.key, answer.body, { headers: answer.headers, now: now() });
  await options.onAnswer?.(answer.body, answer.headers);
  return answer;
}

/** A 304 to a request that named no validators: the server is wrong, and there is nothing to answer with. */
function unexpected304(what: string): NetworkError {
  return new NetworkError(`The server answered ${what} with 304 Not Modified, but the request was not conditional.`, {
    kind: 'server_error',
    details: { request: what, status: 304 },
  });
}
