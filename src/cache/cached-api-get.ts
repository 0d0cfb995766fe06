/**
 * One GET of the exercise API through the response cache: the key it is kept under (scoped by
 * origin, the whole base URL, language and API key), the cached full record that also answers
 * a record request, and what an answer stores besides itself (its full records) and tells shell
 * completion (its ids). The policy (fresh, revalidate, stale on --offline…) is cached-get.ts's;
 * the request is the caller's `fetch`, since cache/ sits below http/ and api/ and never
 * imports them.
 */
import type { ExerciseSummary, ListResponse } from '../catalogue/types.js';
import { type CacheMode, type CacheOutcome, type CachedAnswer, type FetchResult, type Validators, cachedGet } from './cached-get.js';
import { cacheScope, isFullRecord, scopedCacheKey } from './keys.js';
import type { CacheLookup, ResponseCache } from './response-cache.js';

/** The response cache as one client uses it: the store, the mode the global flags chose, the time to live. */
export interface ClientCache {
  store: ResponseCache;
  mode: CacheMode;
  ttlMs: number;
  /**
   * Told the ids and names of every answer fetched from the service (not of cache hits), so
   * shell completion can offer them without a request (src/completion/id-index.ts).
   */
  noteIds?: (entries: Array<{ id: string; name?: string }>) => void;
}

export interface ApiGet {
  /** The request's URL, query included. */
  url: URL;
  /** The client's base URL: another service under the same origin never shares answers. */
  baseUrl: URL;
  lang?: string | undefined;
  /** keys.ts keyHash of the API key in use. */
  keyHash: string;
  /** The exercise a record request asks for (id or name): a full record cached from any answer serves it. */
  record?: string | undefined;
  /** The request in words: `GET /exercise/Push_Up`. */
  what: string;
  /** Sends the request (conditional when validators are given) and checks its body. */
  fetch: (validators: Validators) => Promise<FetchResult>;
}

/** How each cache outcome reads in --verbose. */
const OUTCOME_WORDS: Readonly<Record<CacheOutcome, string>> = {
  hit: 'cache hit',
  'stale hit (offline)': 'cache hit (stale, --offline)',
  revalidated: 'revalidated',
  miss: 'miss',
  refreshed: 'miss (--refresh)',
  bypassed: 'miss (--no-cache)',
};

/** The --verbose line of an answer: `cache hit: GET /exercise/Push_Up (de-DE)`. */
export function outcomeLine(outcome: CacheOutcome, what: string, lang: string | undefined): string {
  return `${OUTCOME_WORDS[outcome]}: ${what}${lang ? ` (${lang})` : ''}`;
}

export function cachedApiGet(cache: ClientCache, get: ApiGet): Promise<CachedAnswer> {
  const { url, lang, record } = get;
  const scope = { origin: url.origin, baseUrl: get.baseUrl.href, lang, keyHash: get.keyHash };
  const recordScope = cacheScope(scope);
  const now = Date.now();
  const store = cache.store;
  return cachedGet({
    cache: store,
    key: scopedCacheKey(recordScope, url.pathname, url.searchParams),
    mode: cache.mode,
    ttlMs: cache.ttlMs,
    fetch: get.fetch,
    what: lang ? `${get.what} (${lang})` : get.what,
    ...(record !== undefined ? { fallback: (): Promise<CacheLookup> => store.getRecord(recordScope, record, { now, ttlMs: cache.ttlMs }) } : {}),
    onAnswer: async (body, headers) => {
      const items = record !== undefined ? [body as ExerciseSummary] : ((body as ListResponse).exercises ?? []);
      const records = record !== undefined ? items : items.filter(isFullRecord);
      for (const item of records) await store.putRecord(recordScope, item, { headers, now: Date.now() });
      cache.noteIds?.(items.map((item) => ({ id: item.id, ...(typeof item.name === 'string' ? { name: item.name } : {}) })));
    },
  });
}
