/**
 * The cache policy of one GET with a counting fake `fetch`: how many requests each mode
 * sends, and what it stores. (The transport that will be passed as `fetch` has its own tests.)
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type FetchResult, type Validators, cachedGet, cacheKey, cacheScope } from '../../src/cache/cached-get.js';
import type { HeaderBag } from '../../src/cache/headers.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { NetworkError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

const TTL = 86_400_000;
const T0 = Date.UTC(2025, 5, 1);
const conn = { origin: 'https://api.example.test', apiKey: 'k', lang: 'en-GB' };
const scope = cacheScope(conn);
const record = { id: 'Push_Up', name: 'Push Up', category: 'STRENGTH', primaryMuscle: ['CHEST'], instructions: ['Push.'] };

let cache: ResponseCache;
let clock: number;
let sent: Validators[];
/** What the fake server answers next; a function of the validators it is sent. */
let server: (v: Validators) => FetchResult;

function fetch(v: Validators): Promise<FetchResult> {
  sent.push(v);
  return Promise.resolve(server(v));
}

function get(path: string, mode: 'normal' | 'refresh' | 'no-cache' | 'offline' = 'normal', extra: Partial<Parameters<typeof cachedGet>[0]> = {}) {
  return cachedGet({ cache, key: cacheKey({ ...conn, path }), mode, ttlMs: TTL, fetch, what: `GET ${path}`, now: () => clock, ...extra });
}

/** `show` as the client would wire it: the record cache as fallback, records stored from every answer. */
function show(idOrName: string, mode: 'normal' | 'offline' = 'normal') {
  return get(`/exercise/${encodeURIComponent(idOrName)}`, mode, {
    fallback: () => cache.getRecord(scope, idOrName, { now: clock, ttlMs: TTL }),
    onAnswer: async (body: unknown, headers: HeaderBag) => {
      await cache.putRecord(scope, body, { headers, now: clock });
    },
  });
}

beforeEach(() => {
  cache = ResponseCache.open(join(tempDir(), 'http'));
  clock = T0;
  sent = [];
  server = () => ({ status: 200, body: { n: sent.length }, headers: {} });
});

describe('cachedGet', () => {
  it('asks once, then answers from the cache until the TTL runs out', async () => {
    expect(await get('/exercise/query')).toEqual({ body: { n: 1 }, outcome: 'miss' });
    expect(await get('/exercise/query')).toEqual({ body: { n: 1 }, outcome: 'cache hit' });
    clock += TTL;
    expect(await get('/exercise/query')).toEqual({ body: { n: 2 }, outcome: 'miss' });
    expect(sent).toEqual([{}, {}]);
  });

  it('revalidates a stale entry with its validators and keeps it on a 304', async () => {
    server = (v) =>
      v.etag === '"v1"'
        ? { status: 304, headers: {} }
        : { status: 200, body: { n: sent.length }, headers: { etag: '"v1"', 'last-modified': 'Sun, 01 Jun 2025 00:00:00 GMT' } };
    await get('/exercise/query');
    clock += TTL;
    expect(await get('/exercise/query')).toEqual({ body: { n: 1 }, outcome: 'revalidated' });
    expect(sent[1]).toEqual({ etag: '"v1"', lastModified: 'Sun, 01 Jun 2025 00:00:00 GMT' });
    expect(await get('/exercise/query')).toEqual({ body: { n: 1 }, outcome: 'cache hit' });
    expect(sent).toHaveLength(2);
  });

  it('stores the new answer when the revalidation brings a 200', async () => {
    server = () => ({ status: 200, body: { n: sent.length }, headers: { etag: `"v${sent.length}"` } });
    await get('/exercise/query');
    clock += TTL;
    expect(await get('/exercise/query')).toEqual({ body: { n: 2 }, outcome: 'miss' });
    expect(await get('/exercise/query')).toEqual({ body: { n: 2 }, outcome: 'cache hit' });
  });

  it('--refresh asks again and updates; --no-cache asks and leaves the cache alone', async () => {
    await get('/exercise/query');
    expect(await get('/exercise/query', 'refresh')).toEqual({ body: { n: 2 }, outcome: 'miss (--refresh)' });
    expect(await get('/exercise/query')).toEqual({ body: { n: 2 }, outcome: 'cache hit' });
    expect(await get('/exercise/query', 'no-cache')).toEqual({ body: { n: 3 }, outcome: 'miss (--no-cache)' });
    expect(await get('/exercise/query')).toEqual({ body: { n: 2 }, outcome: 'cache hit' });
    expect(sent).toHaveLength(3);
  });

  it('--offline answers from the cache, stale too, and a miss is exit 6 naming the request', async () => {
    await get('/exercise/query');
    clock += 10 * TTL;
    expect(await get('/exercise/query', 'offline')).toEqual({ body: { n: 1 }, outcome: 'cache hit (stale, --offline)' });
    const err = await get('/exercise/exerciseIds', 'offline').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).exitCode).toBe(6);
    expect((err as NetworkError).message).toBe('--offline: the cache holds no answer to GET /exercise/exerciseIds.');
    expect(sent).toHaveLength(1);
  });

  it('answers show by name from a record an answer by id brought, and the other way round', async () => {
    server = () => ({ status: 200, body: record, headers: {} });
    expect((await show('Push_Up')).outcome).toBe('miss');
    expect(await show('push up')).toEqual({ body: record, outcome: 'cache hit' });
    expect(await show('Push Up', 'offline')).toEqual({ body: record, outcome: 'cache hit' });
    expect(sent).toHaveLength(1);
  });

  it('passes a budget error from fetch on, storing nothing', async () => {
    server = () => {
      throw new Error('budget spent');
    };
    await expect(get('/exercise/query')).rejects.toThrow('budget spent');
    expect(await cache.get(cacheKey({ ...conn, path: '/exercise/query' }), { now: clock, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it('treats a 304 to an unconditional request as a server error', async () => {
    server = () => ({ status: 304, headers: {} });
    await expect(get('/exercise/query')).rejects.toThrow(/304 Not Modified, but the request was not conditional/);
  });
});
