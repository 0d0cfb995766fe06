/**
 * The response cache over a real store (one file per key) in a temp directory: freshness rules,
 * revalidation, records, corrupt entries (damaged on disk by hand), and the key never
 * written anywhere.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cacheKey, cacheScope, isFullRecord, keyHash } from '../../src/cache/cached-get.js';
import { Ledger } from '../../src/cache/ledger.js';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { entryPath, readEntry, writeEntry } from '../../src/cache/store-files.js';
import { freshnessFor } from '../../src/cache/headers.js';
import { filesContaining, filesUnder } from './support.js';
import { tempDir } from '../helpers/temp.js';

const HOUR = 3_600_000;
const TTL = 24 * HOUR;
const T0 = Date.UTC(2025, 5, 1, 12, 0, 0);
const API_KEY = 'sk-live-very-secret-0123456789';
const conn = { origin: 'https://api.example.test', apiKey: API_KEY, lang: 'en-GB' };
const page = { exercises: [{ id: 'Push_Up', name: 'Push Up' }], pagination: { total: 1, next: null, prev: null } };
const record = {
  id: 'Barbell_Bench_Press',
  name: 'Barbell Bench Press',
  category: 'STRENGTH',
  primaryMuscle: ['CHEST'],
  instructions: ['Lie down.', 'Press.'],
};

let dir: string;
let cache: ResponseCache;
let log: string[];
const key = cacheKey({ ...conn, path: '/exercise/query', query: { primaryMuscle: 'CHEST', limit: '25' } });

beforeEach(() => {
  dir = join(tempDir(), 'http');
  log = [];
  cache = ResponseCache.open(dir, { log: (line) => log.push(line) });
});

/** The entry files of the store. */
const entryFiles = (): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.entry')) : []);

/** Writes `body` under `k` in the store's format with `meta`, as other code might. */
async function writeRaw(k: string, body: string, meta: Record<string, unknown>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await writeEntry(dir, k, meta, Buffer.from(body));
}

describe('freshness', () => {
  it('answers from the cache within the TTL and calls it stale after', async () => {
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(await cache.put(key, page, { now: T0 })).toBe(true);
    expect(await cache.get(key, { now: T0 + TTL - 1, ttlMs: TTL })).toEqual({ status: 'fresh', body: page, storedAt: T0 });
    expect(await cache.get(key, { now: T0 + TTL, ttlMs: TTL })).toEqual({ status: 'stale', body: page, storedAt: T0 });
    // a shorter TTL configured later applies to what is stored
    expect((await cache.get(key, { now: T0 + 2 * HOUR, ttlMs: HOUR })).status).toBe('stale');
  });

  it('lets max-age replace the TTL, less the Age the answer already had (http-cache-semantics: Date alone does not age it)', async () => {
    await cache.put(key, page, { now: T0, headers: { 'cache-control': 'max-age=60' } });
    expect((await cache.get(key, { now: T0 + 59_000, ttlMs: TTL })).status).toBe('fresh');
    expect((await cache.get(key, { now: T0 + 60_000, ttlMs: TTL })).status).toBe('stale');

    await cache.put(key, page, { now: T0, headers: { 'cache-control': 'max-age=172800' } });
    expect((await cache.get(key, { now: T0 + 30 * HOUR, ttlMs: TTL })).status).toBe('fresh');

    await cache.put(key, page, { now: T0, headers: { 'cache-control': 'max-age=60', age: '50' } });
    expect((await cache.get(key, { now: T0 + 11_000, ttlMs: TTL })).status).toBe('stale');

    const sentAt = new Date(T0 - 30_000).toUTCString();
    await cache.put(key, page, { now: T0, headers: { 'cache-control': 'max-age=60', date: sentAt } });
    expect((await cache.get(key, { now: T0 + 59_000, ttlMs: TTL })).status).toBe('fresh');
    expect((await cache.get(key, { now: T0 + 61_000, ttlMs: TTL })).status).toBe('stale');
  });

  it('never stores a no-store answer, and drops what was stored before', async () => {
    await cache.put(key, page, { now: T0 });
    expect(await cache.put(key, { other: true }, { now: T0 + 1, headers: { 'cache-control': 'private, no-store' } })).toBe(false);
    expect(await cache.get(key, { now: T0 + 2, ttlMs: TTL })).toEqual({ status: 'miss' });
    const other = cacheKey({ ...conn, path: '/exercise/exerciseIds' });
    expect(await cache.put(other, page, { now: T0, headers: { 'cache-control': 'no-store' } })).toBe(false);
    expect(existsSync(entryPath(dir, other))).toBe(false);
  });

  it('stores a no-cache answer but always asks for revalidation', async () => {
    await cache.put(key, page, { now: T0, headers: { 'cache-control': 'no-cache', etag: '"v1"' } });
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'stale', body: page, storedAt: T0, etag: '"v1"' });
  });

  it('calls an answer stored in the future (the clock went back) stale', async () => {
    await cache.put(key, page, { now: T0 });
    expect((await cache.get(key, { now: T0 - 1000, ttlMs: TTL })).status).toBe('stale');
  });
});

describe('revalidation', () => {
  it('keeps ETag and Last-Modified and gives them back when stale', async () => {
    const lastModified = new Date(T0 - HOUR).toUTCString();
    await cache.put(key, page, { now: T0, headers: { etag: 'W/"abc"', 'last-modified': lastModified } });
    expect(await cache.get(key, { now: T0 + TTL, ttlMs: TTL })).toEqual({ status: 'stale', body: page, storedAt: T0, etag: 'W/"abc"', lastModified });
  });

  it('after a 304, serves the stored body as fresh again from then on', async () => {
    await cache.put(key, page, { now: T0, headers: { etag: '"v1"' } });
    const later = T0 + TTL + HOUR;
    expect(await cache.refresh(key, { now: later, headers: {} })).toEqual({ status: 'fresh', body: page, storedAt: later });
    expect(await cache.get(key, { now: later + TTL - 1, ttlMs: TTL })).toEqual({ status: 'fresh', body: page, storedAt: later });
    // the validators stay unless the 304 sends new ones
    expect(await cache.get(key, { now: later + TTL, ttlMs: TTL })).toMatchObject({ status: 'stale', etag: '"v1"' });
    await cache.refresh(key, { now: later + TTL, headers: { etag: '"v2"', 'cache-control': 'max-age=10' } });
    expect(await cache.get(key, { now: later + TTL + 11_000, ttlMs: TTL })).toMatchObject({ status: 'stale', etag: '"v2"' });
  });

  it('is a miss when there is nothing to refresh, and a no-store 304 drops the entry', async () => {
    expect(await cache.refresh(key, { now: T0, headers: {} })).toEqual({ status: 'miss' });
    await cache.put(key, page, { now: T0, headers: { etag: '"v1"' } });
    expect(await cache.refresh(key, { now: T0 + 5, headers: { 'cache-control': 'no-store' } })).toMatchObject({ status: 'fresh', body: page });
    expect(await cache.get(key, { now: T0 + 6, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it('keeps one file per key however often it is refreshed, holding the newest entry', async () => {
    await cache.put(key, page, { now: T0, headers: { etag: `"${'e'.repeat(900)}"` } });
    for (let i = 1; i <= 40; i++) {
      await cache.get(key, { now: T0 + i, ttlMs: TTL });
      await cache.refresh(key, { now: T0 + i, headers: {} });
    }
    expect(readdirSync(dir)).toEqual(entryFiles());
    expect(entryFiles()).toHaveLength(1);
    expect(readFileSync(entryPath(dir, key)).length).toBeLessThan(20 * 1024);
    expect(await cache.get(key, { now: T0 + 41, ttlMs: TTL })).toMatchObject({ status: 'fresh', storedAt: T0 + 40 });
  });
});

describe('corrupt entries are dropped, never served', () => {
  beforeEach(async () => {
    await cache.put(key, page, { now: T0 });
  });

  it('content that fails the integrity check (one byte changed)', async () => {
    const file = entryPath(dir, key);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 1;
    writeFileSync(file, bytes);
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(log.join('\n')).toMatch(/dropped .*integrity/);
    expect(entryFiles()).toHaveLength(0);
    expect(readEntry(dir, key).status).toBe('missing');
    // and the same answer can be stored again afterwards
    await cache.put(key, page, { now: T0 + 1 });
    expect(await cache.get(key, { now: T0 + 2, ttlMs: TTL })).toMatchObject({ status: 'fresh', body: page });
  });

  it('a truncated entry file (torn)', async () => {
    const file = entryPath(dir, key);
    truncateSync(file, readFileSync(file).length - 10);
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(log.join('\n')).toMatch(/bytes, not/);
  });

  it('a missing entry file', async () => {
    unlinkSync(entryPath(dir, key));
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(readEntry(dir, key).status).toBe('missing');
  });

  it('content that verifies but is not JSON (written by other code)', async () => {
    await writeRaw(key, 'not json {', { ...(await freshnessFor({}, T0))!.freshness });
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(log.join('\n')).toMatch(/not JSON/);
  });

  it('metadata this client does not write', async () => {
    await writeRaw(key, JSON.stringify(page), { url: 'x' });
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it('an envelope damaged on disk', async () => {
    const file = entryPath(dir, key);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"storedAt":', '"storedAt":"'));
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    await cache.put(key, page, { now: T0 + 1 });
    expect(await cache.get(key, { now: T0 + 2, ttlMs: TTL })).toMatchObject({ status: 'fresh', storedAt: T0 + 1 });
  });

  it('bytes appended after a good entry', async () => {
    appendFileSync(entryPath(dir, key), '\n0123abcd\t{"key":"half');
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it('an entry file of garbage', async () => {
    writeFileSync(entryPath(dir, key), Buffer.from([0, 1, 2, 255, 10, 9, 10]));
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it("another key's entry renamed to this key's file", async () => {
    const other = cacheKey({ ...conn, path: '/exercise/exerciseIds' });
    await cache.put(other, { other: true }, { now: T0 });
    writeFileSync(entryPath(dir, key), readFileSync(entryPath(dir, other)));
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(log.join('\n')).toMatch(/another key/);
  });
});

describe('full records', () => {
  const scope = cacheScope(conn);

  it('answers by id and by exact name, case-insensitively, from one stored record', async () => {
    expect(await cache.putRecord(scope, record, { now: T0 })).toBe(true);
    for (const asked of ['Barbell_Bench_Press', 'Barbell Bench Press', 'barbell BENCH press']) {
      expect(await cache.getRecord(scope, asked, { now: T0 + 1, ttlMs: TTL })).toEqual({ status: 'fresh', body: record, storedAt: T0 });
    }
    expect(await cache.getRecord(scope, 'barbell_bench_press', { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(await cache.getRecord(scope, 'Barbell Bench', { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    // one file per key: by id, by name
    expect(entryFiles()).toHaveLength(2);
  });

  it('is never served to another language, key or origin', async () => {
    await cache.putRecord(scope, record, { now: T0 });
    for (const other of [
      cacheScope({ ...conn, lang: 'de-DE' }),
      cacheScope({ ...conn, lang: undefined }),
      cacheScope({ ...conn, apiKey: 'free-plan-key' }),
      cacheScope({ ...conn, origin: 'http://127.0.0.1:8787' }),
    ]) {
      expect(await cache.getRecord(other, record.id, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    }
  });

  it('follows the TTL and no-store like any answer', async () => {
    await cache.putRecord(scope, record, { now: T0 });
    expect((await cache.getRecord(scope, record.id, { now: T0 + TTL, ttlMs: TTL })).status).toBe('stale');
    expect(await cache.putRecord(scope, record, { now: T0, headers: { 'cache-control': 'no-store' } })).toBe(false);
    expect(await cache.getRecord(scope, record.name, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it('tells a full record from a list summary', () => {
    expect(isFullRecord(record)).toBe(true);
    expect(isFullRecord(page.exercises[0])).toBe(false);
    expect(isFullRecord({ name: 'x', category: 'CARDIO', primaryMuscle: [] })).toBe(false);
    expect(isFullRecord(null)).toBe(false);
  });
});

describe('the store on disk', () => {
  it('holds no trace of the API key after puts, records, refreshes and ledger writes', async () => {
    const scope = cacheScope(conn);
    const ledger = new Ledger(join(dir, '..', 'ledger.json'));
    await ledger.reserve(conn.origin, keyHash(API_KEY), { budget: 10 });
    ledger.noteRateLimit(conn.origin, keyHash(API_KEY), { 'x-ratelimit-remaining': '9' });
    await ledger.flush();
    await cache.put(key, page, { now: T0, headers: { etag: '"e"' } });
    await cache.putRecord(scope, record, { now: T0 });
    await cache.refresh(key, { now: T0 + 1, headers: {} });
    await cache.put(cacheKey({ ...conn, path: '/exercise/exerciseIds', query: { limit: '25', after: 'X' } }), page, { now: T0 });
    expect(filesUnder(dir).length).toBeGreaterThan(3);
    expect(filesUnder(join(dir, '..')).length).toBe(filesUnder(dir).length + 2); // the ledger and its copy
    expect(filesContaining(join(dir, '..'), API_KEY)).toEqual([]);
    expect(filesContaining(join(dir, '..'), API_KEY.slice(0, 12))).toEqual([]);
  });

  it('ignores an old cacache store in its directory, and clear removes it', async () => {
    mkdirSync(join(dir, 'index-v5', 'ab', 'cd'), { recursive: true });
    writeFileSync(join(dir, 'index-v5', 'ab', 'cd', 'bucket'), `\nabc\t{"key":${JSON.stringify(key)},"integrity":"sha512-x"}`);
    mkdirSync(join(dir, 'content-v2', 'sha512'), { recursive: true });
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    await cache.put(key, page, { now: T0 });
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toMatchObject({ status: 'fresh', body: page });
    expect((await cache.info()).entries).toBe(1);
    await cache.clear();
    expect(existsSync(join(dir, 'index-v5'))).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it('reports entries, bytes and the oldest entry, and clears them', async () => {
    expect(await cache.info()).toEqual({ path: dir, entries: 0, bytes: 0, oldest: null });
    await cache.put(key, page, { now: T0 });
    await cache.putRecord(cacheScope(conn), record, { now: T0 });
    const info = await cache.info();
    expect(info.entries).toBe(3);
    expect(info.bytes).toBeGreaterThan(JSON.stringify(page).length + JSON.stringify(record).length);
    expect(info.oldest).toBeGreaterThan(Date.now() - 60_000);
    await cache.clear();
    expect(await cache.info()).toMatchObject({ entries: 0, bytes: 0 });
    expect(await cache.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
  });

  it('is a miss and a skipped write, never an error, when the store cannot be used', async () => {
    const blocked = join(tempDir(), 'file');
    writeFileSync(blocked, 'not a directory');
    const broken = ResponseCache.open(join(blocked, 'http'), { log: (line) => log.push(line) });
    expect(await broken.get(key, { now: T0, ttlMs: TTL })).toEqual({ status: 'miss' });
    expect(await broken.put(key, page, { now: T0 })).toBe(false);
    expect(log.join('\n')).toMatch(/cannot store/);
  });
});
