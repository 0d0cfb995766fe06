/**
 * One JSON GET through the response cache: its URL, its key and the policy by mode (normal, --refresh,
 * --no-cache, --offline); the request itself is the caller's, so a hit never touches HTTP code. A key
 * names the whole base URL, the language and a hash of the key (never the key itself).
 */
import { createHash } from 'node:crypto';
import { NetworkError } from '../errors.js';
import { isAbsoluteUrl } from '../catalogue/media.js';
import type { ExerciseSummary, ListResponse } from '../catalogue/types.js';
import { type HeaderBag, type Validators, contentLanguage } from './headers.js';
import { type CacheLookup, KEY_VERSION, type ResponseCache } from './response-cache.js';

export type { Validators };

/** A URL under `base` (keeping its path prefix), or an absolute URL, with `query` appended. */
export function resolveUrl(base: URL, pathOrUrl: string | URL, query?: QueryInput): URL {
  const under = typeof pathOrUrl === 'string' && !isAbsoluteUrl(pathOrUrl);
  const url = under ? new URL(`${base.pathname.replace(/\/+$/, '')}/${pathOrUrl.replace(/^\//, '')}`, base.origin) : new URL(pathOrUrl);
  for (const [name, value] of queryPairs(query)) url.searchParams.append(name, value);
  return url;
}

export type QueryInput = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A short one-way hash of the API key (`none` without one): all the cache and the ledger know of it. */
export function keyHash(apiKey: string | undefined): string {
  if (!apiKey) return 'none';
  // A domain of its own; 64 bits keep one machine's keys apart and are too few to be a handle on the key.
  return createHash('sha256').update('exercises api key\0').update(apiKey).digest('hex').slice(0, 16);
}

/** `https://host[:port]` as URL normalises it (lower-case host, default port dropped). */
export function normalOrigin(origin: string): string {
  return new URL(origin).origin;
}

function queryPairs(query: QueryInput | undefined): Array<[string, string]> {
  if (query instanceof URLSearchParams) return [...query.entries()];
  return Object.entries(query ?? {}).flatMap(([name, value]) => (value === undefined ? [] : [value].flat().map((v): [string, string] => [name, v])));
}

/** The query in one canonical form, pairs sorted: every repeated parameter is a set filter. */
export function canonicalQuery(query: QueryInput | undefined): string {
  const pairs = queryPairs(query).sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return new URLSearchParams(pairs).toString();
}

/** What a stored answer belongs to: the base URL with its path (else `origin`), the plan (else the key hash), the language (undefined: the service's). */
export interface ScopeInput {
  origin: string;
  baseUrl?: string;
  plan?: string;
  lang?: string | undefined;
  apiKey?: string | undefined;
  keyHash?: string;
}

/** `<base url> <key hash> <plan> <lang>`, shared by every key of one connection and language. */
export function cacheScope(input: ScopeInput): string {
  const hash = input.keyHash ?? keyHash(input.apiKey);
  const url = new URL(input.baseUrl ?? input.origin);
  const base = input.baseUrl === undefined ? url.origin : `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return `${base} ${hash} ${input.plan ?? '-'} ${input.lang ? input.lang.toLowerCase() : '-'}`;
}

export interface RequestKeyInput extends ScopeInput {
  path: string;
  query?: QueryInput;
}

export function cacheKey(input: RequestKeyInput): string {
  return scopedCacheKey(cacheScope(input), input.path, input.query);
}

/** cacheKey() with its scope already made: a listing asks for hundreds of keys in one scope. */
export function scopedCacheKey(scope: string, path: string, query: QueryInput | undefined): string {
  const canonical = canonicalQuery(query);
  return `${KEY_VERSION} GET ${scope} ${path}${canonical ? `?${canonical}` : ''}`;
}

/** A list item with the fields only a full record carries, so it can answer `show` too. */
export function isFullRecord(item: unknown): item is { name: string; [field: string]: unknown } {
  if (typeof item !== 'object' || item === null) return false;
  const r = item as Record<string, unknown>;
  return typeof r.name === 'string' && r.category !== undefined && Array.isArray(r.primaryMuscle) && Array.isArray(r.instructions);
}

export type CacheMode = 'normal' | 'refresh' | 'no-cache' | 'offline';

/** A 200 with its parsed body, or a 304 (only to a conditional request). */
export type FetchResult = { status: 200; body: unknown; headers: HeaderBag } | { status: 304; headers: HeaderBag };

type CacheOutcome = 'cache hit' | 'cache hit (stale, --offline)' | 'revalidated' | 'miss' | 'miss (--refresh)' | 'miss (--no-cache)';

export interface CachedGetOptions {
  cache: ResponseCache;
  key: string;
  mode: CacheMode;
  ttlMs: number;
  /** Sends the request, conditional when validators are given; errors (and the budget) throw. */
  fetch: (validators: Validators) => Promise<FetchResult>;
  /** Another cached source of the same answer, asked when the entry is not fresh. */
  fallback?: () => Promise<CacheLookup>;
  /** After a 200 or a 304: store what the answer also tells (its full records). */
  onAnswer?: (body: unknown, headers: HeaderBag) => Promise<void>;
  /** The request in words, for the --offline miss. */
  what: string;
  now?: () => number;
}

export interface CachedAnswer {
  body: unknown;
  outcome: CacheOutcome;
  /** The Content-Language it was answered in, when said. */
  language?: string | undefined;
}

const answered = (body: unknown, outcome: CacheOutcome, language: string | undefined): CachedAnswer => ({ body, outcome, language });

export async function cachedGet(options: CachedGetOptions): Promise<CachedAnswer> {
  const { cache, key, mode, ttlMs } = options;
  const now = options.now ?? Date.now;

  if (mode === 'no-cache') return fetched(await fetchAnew(options, now, false), 'miss (--no-cache)');
  if (mode === 'refresh') return fetched(await fetchAnew(options, now), 'miss (--refresh)');

  const own = await cache.get(key, { now: now(), ttlMs });
  if (own.status === 'fresh') return answered(own.body, 'cache hit', own.language);
  const other = options.fallback ? await options.fallback() : ({ status: 'miss' } as const);
  if (other.status === 'fresh') return answered(other.body, 'cache hit', other.language);

  if (mode === 'offline') {
    const stale = own.status === 'stale' ? own : other.status === 'stale' ? other : undefined;
    if (stale) return answered(stale.body, 'cache hit (stale, --offline)', stale.language);
    throw new NetworkError(`--offline: the cache holds no answer to ${options.what}.`, {
      hint: 'Run the command once without --offline to fetch and cache it.',
      details: { request: options.what },
    });
  }

  if (own.status === 'stale' && (own.etag !== undefined || own.lastModified !== undefined)) {
    const answer = await options.fetch({ etag: own.etag, lastModified: own.lastModified });
    if (answer.status === 304) {
      const refreshed = await cache.refresh(key, { headers: answer.headers, now: now() });
      if (refreshed.status === 'fresh') {
        await options.onAnswer?.(refreshed.body, answer.headers);
        return answered(refreshed.body, 'revalidated', contentLanguage(answer.headers) ?? own.language);
      }
      // The entry went while the request was out: ask again, unconditionally.
      return fetched(await fetchAnew(options, now), 'miss');
    }
    return fetched(await store(options, answer, now), 'miss');
  }
  return fetched(await fetchAnew(options, now), 'miss');
}

type Fetched = { body: unknown; headers: HeaderBag };

function fetched(answer: Fetched, outcome: CacheOutcome): CachedAnswer {
  return answered(answer.body, outcome, contentLanguage(answer.headers));
}

/** Fetches without validators, and stores the answer unless `keep` is false (--no-cache). */
async function fetchAnew(options: CachedGetOptions, now: () => number, keep = true): Promise<Fetched> {
  const answer = await options.fetch({});
  if (answer.status === 304) {
    // A 304 to a request naming no validators: the server is wrong.
    throw new NetworkError(`The server answered ${options.what} with 304 Not Modified, but the request was not conditional.`, {
      kind: 'server_error',
      details: { request: options.what, status: 304 },
    });
  }
  return keep ? store(options, answer, now) : answer;
}

async function store(options: CachedGetOptions, answer: Fetched, now: () => number): Promise<Fetched> {
  await options.cache.put(options.key, answer.body, { headers: answer.headers, now: now() });
  await options.onAnswer?.(answer.body, answer.headers);
  return answer;
}

/**
 * The response cache as one API client uses it: the store, the mode, the time to live; `noteIds` hears the
 * ids and names of every answer fetched (not of hits), so completion can offer them.
 */
export interface ClientCache {
  store: ResponseCache;
  mode: CacheMode;
  ttlMs: number;
  noteIds?: (entries: Array<{ id: string; name?: string }>) => void;
}

/** One API GET: its URL, its scope's parts, and the exercise a record request asks for. */
type ApiGet = Pick<CachedGetOptions, 'fetch' | 'what'> & { url: URL; baseUrl: URL; lang?: string | undefined; keyHash: string; record?: string | undefined };

/** The --verbose line of an answer: `cache hit: GET /exercise/Push_Up (de-DE)`. */
export function outcomeLine(outcome: CacheOutcome, what: string, lang: string | undefined): string {
  return `${outcome}: ${what}${lang ? ` (${lang})` : ''}`;
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
