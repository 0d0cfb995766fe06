/**
 * The synchronous index writer of the response cache (src/cache/store-write-sync.ts): lines
 * in store-write.ts's format, read back by cacache and by our reader, only for content the
 * store holds; directories made only when missing; private files; a failed write writes
 * nothing. And ResponseCache.putLater, which queues its writes behind the current turn, keeps
 * the store consistent when the process is killed part-way through a run of them.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import cacache from 'cacache';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { bucketPath, readStoreEntry } from '../../src/cache/store-read.js';
import { deleteEntrySync, linkEntrySync, linkIfStored } from '../../src/cache/store-write-sync.js';
import { writeEntry } from '../../src/cache/store-write.js';
import { builtModule, filesUnder } from './support.js';
import { tempDir } from '../helpers/temp.js';

const DATA = Buffer.from(JSON.stringify({ exercises: [{ id: 'Push_Up', name: 'Push-Up ü' }], pagination: { total: 1 } }));
const META = { storedAt: 1700000000000, etag: '"p1"' };

describe('the synchronous index writer', () => {
  it('writes nothing for bytes the store does not hold, and links a key to bytes it holds, as cacache reads it', async () => {
    const dir = tempDir();
    expect(linkIfStored(dir, 'page 1', DATA, META)).toBeUndefined();
    expect(existsSync(dir) ? filesUnder(dir) : []).toEqual([]);
    const first = await writeEntry(dir, 'page 1', DATA, META);
    const linked = linkIfStored(dir, 'page 1 again', DATA, { ...META, etag: '"p2"' });
    expect(linked).toEqual(first);
    const got = await cacache.get(dir, 'page 1 again');
    expect(got.data.equals(DATA)).toBe(true);
    expect(got.metadata).toEqual({ ...META, etag: '"p2"' });
    expect(got.integrity).toBe(first.integrity);
    expect((await readStoreEntry(dir, 'page 1 again')).status).toBe('found');
    expect((await cacache.verify(dir)).badContentCount).toBe(0);
  });

  it('links a key to content already there, and writes a deletion line only for a key it has a bucket for', async () => {
    const dir = tempDir();
    const { integrity, size } = await writeEntry(dir, 'a', DATA, META);
    linkEntrySync(dir, 'b', integrity, size, { n: 2 });
    expect((await cacache.get(dir, 'b')).metadata).toEqual({ n: 2 });
    deleteEntrySync(dir, 'a');
    expect(await cacache.get.info(dir, 'a')).toBeNull();
    expect((await readStoreEntry(dir, 'a')).status).toBe('missing');
    deleteEntrySync(dir, 'never stored');
    expect(existsSync(bucketPath(dir, 'never stored'))).toBe(false);
  });

  it('makes its directories 0700 and buckets 0600 under umask 000', async () => {
    const dir = tempDir();
    await writeEntry(dir, 'first', DATA, META);
    const old = process.umask(0);
    try {
      linkIfStored(dir, 'private', DATA, META);
    } finally {
      process.umask(old);
    }
    const bucket = bucketPath(dir, 'private');
    expect(statSync(bucket).mode & 0o777).toBe(0o600);
    expect(statSync(join(bucket, '..')).mode & 0o777).toBe(0o700);
  });

  it('throws when the index cannot be written, and writes nothing', async () => {
    const dir = tempDir();
    await writeEntry(dir, 'first', DATA, META);
    // A file where the index tree should be: nothing can be made under it (root or not).
    rmSync(join(dir, 'index-v5'), { recursive: true });
    writeFileSync(join(dir, 'index-v5'), 'not a directory');
    expect(() => linkIfStored(dir, 'second', DATA, META)).toThrow(/ENOTDIR|EEXIST/);
    expect(readFileSync(join(dir, 'index-v5'), 'utf8')).toBe('not a directory');
  });
});

describe('ResponseCache.putLater', () => {
  const lookup = { now: 2000, ttlMs: 60_000 };

  it('writes after the current turn, and a read or a put of the same key comes after it', async () => {
    const dir = join(tempDir(), 'http');
    const cache = ResponseCache.open(dir, { log: (line) => expect.fail(line) });
    cache.putLater('k', { v: 1 }, { now: 1000 });
    expect(existsSync(dir)).toBe(false); // nothing written yet: the answer goes out first
    expect(await cache.get('k', lookup)).toMatchObject({ status: 'fresh', body: { v: 1 } });
    cache.putLater('k', { v: 2 }, { now: 1001 });
    await cache.put('k', { v: 3 }, { now: 1002 });
    expect(await cache.get('k', lookup)).toMatchObject({ status: 'fresh', body: { v: 3 } });
    cache.putLater('k', { v: 4 }, { now: 1003 });
    await cache.flush();
    expect(await ResponseCache.open(dir).get('k', lookup)).toMatchObject({ body: { v: 4 } });
  });

  it('writes on its own, a few turns later, without a flush', async () => {
    const dir = join(tempDir(), 'http');
    const cache = ResponseCache.open(dir);
    cache.putLater('later', { v: 1 }, { now: 1000 });
    // New content goes through the thread pool: give it a moment, but no flush.
    const until = Date.now() + 5000;
    while ((await readStoreEntry(dir, 'later')).status !== 'found' && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await readStoreEntry(dir, 'later')).status).toBe('found');
  });

  it('logs a write the store refuses and goes on: the run never fails for its cache', async () => {
    const blocked = join(tempDir(), 'file');
    writeFileSync(blocked, 'not a directory');
    const log: string[] = [];
    const broken = ResponseCache.open(join(blocked, 'http'), { log: (line) => log.push(line) });
    broken.putLater('k', { v: 1 }, { now: 1000 });
    await expect(broken.flush()).resolves.toBeUndefined();
    expect(log.join('\n')).toMatch(/cannot store the answer for k/);
  });

  it('logs each page it cannot write once the store breaks part-way, and keeps the pages written before', async () => {
    const dir = join(tempDir(), 'http');
    const log: string[] = [];
    const cache = ResponseCache.open(dir, { log: (line) => log.push(line) });
    cache.putLater('page 1', { page: 1 }, { now: 1000 });
    await cache.flush();
    // The index tree replaced by a file (root or not, nothing can be appended under it).
    const index = join(dir, 'index-v5');
    const saved = join(dir, '..', 'index-saved');
    renameSync(index, saved);
    writeFileSync(index, 'not a directory');
    cache.putLater('page 2', { page: 2 }, { now: 1000 });
    cache.putLater('page 3', { page: 3 }, { now: 1000 });
    await expect(cache.flush()).resolves.toBeUndefined();
    expect(log.filter((line) => /cannot store the answer for page [23]/.test(line))).toHaveLength(2);
    rmSync(index);
    renameSync(saved, index);
    expect(await cache.get('page 1', lookup)).toMatchObject({ status: 'fresh', body: { page: 1 } });
    expect(await cache.get('page 2', lookup)).toEqual({ status: 'miss' });
    // Their content went in before the index refused them: unnamed, reclaimed by cacache, never read.
    expect((await cacache.verify(dir)).badContentCount).toBe(0);
  });

  it('leaves a consistent store when the process is killed in the middle of a listing, first run or not', async () => {
    const dir = join(tempDir(), 'http');
    const url = pathToFileURL(builtModule('cache/response-cache.js')).href;
    // A listing of 400 pages, one a turn as paging does, stored at `now`; the process kills itself at page 250.
    const listing = async (now: number): Promise<void> => {
      const code = `
        const { ResponseCache } = await import(${JSON.stringify(url)});
        const cache = ResponseCache.open(${JSON.stringify(dir)});
        for (let i = 0; i < 400; i++) {
          cache.putLater('page ' + i, { page: i, exercises: Array.from({ length: 25 }, (_, n) => ({ id: 'E' + i + '_' + n })) }, { now: ${now} });
          await new Promise((resolve) => setImmediate(resolve));
          if (i === 250) process.kill(process.pid, 'SIGKILL');
        }`;
      const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' });
        child.on('error', reject);
        child.on('close', (_code, sig) => resolve(sig));
      });
      expect(signal).toBe('SIGKILL');
    };
    /** Every key the index names, checked to read back whole through cacache and our reader; with when each was stored. */
    const consistent = async (): Promise<Map<number, number>> => {
      const stored = new Map<number, number>();
      for (const [key, entry] of Object.entries(await cacache.ls(dir))) {
        expect((await readStoreEntry(dir, key)).status).toBe('found');
        const page = Number(key.split(' ')[1]);
        expect(JSON.parse((await cacache.get(dir, key)).data.toString('utf8'))).toMatchObject({ page });
        stored.set(page, (entry.metadata as { storedAt: number }).storedAt);
      }
      expect(await cacache.verify(dir)).toMatchObject({ badContentCount: 0, missingContent: 0 });
      return stored;
    };

    // A first run: new content, written on the thread pool; whatever was written is whole.
    await listing(1000);
    const first = await consistent();
    expect(first.size).toBeGreaterThan(0);
    expect(first.size).toBeLessThanOrEqual(251);
    // Every page stored, then the listing fetched again and killed: its index lines go in order.
    const cache = ResponseCache.open(dir);
    for (let i = 0; i < 400; i++)
      await cache.put(`page ${i}`, { page: i, exercises: Array.from({ length: 25 }, (_, n) => ({ id: `E${i}_${n}` })) }, { now: 2000 });
    await listing(3000);
    const again = await consistent();
    expect(again.size).toBe(400);
    const renewed = [...again].filter(([, at]) => at === 3000).map(([page]) => page);
    expect(renewed.length).toBeGreaterThan(200);
    expect(renewed.sort((a, b) => a - b)).toEqual(renewed.map((_, i) => i));
  });
});
