/**
 * The synchronous writer of the response cache (src/cache/store-write-sync.ts): the same
 * format as store-write.ts, read back by cacache and by our reader; directories made only when
 * missing; private files; a failed write leaves nothing half-made; and ResponseCache.putLater,
 * which queues its writes behind the current turn, keeps the store consistent when the
 * process is killed part-way through a run of them.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import cacache from 'cacache';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { bucketPath, readStoreEntry } from '../../src/cache/store-read.js';
import { deleteEntrySync, linkEntrySync, writeEntrySync } from '../../src/cache/store-write-sync.js';
import { writeEntry } from '../../src/cache/store-write.js';
import { builtModule, filesUnder } from './support.js';
import { tempDir } from '../helpers/temp.js';

const DATA = Buffer.from(JSON.stringify({ exercises: [{ id: 'Push_Up', name: 'Push-Up ü' }], pagination: { total: 1 } }));
const META = { storedAt: 1700000000000, etag: '"p1"' };

describe('the synchronous store writer', () => {
  it('writes what cacache and our reader read, as the asynchronous writer does', async () => {
    const dir = tempDir();
    const sync = writeEntrySync(dir, 'page 1', DATA, META);
    const other = tempDir();
    expect(sync).toEqual(await writeEntry(other, 'page 1', DATA, META));
    const got = await cacache.get(dir, 'page 1');
    expect(got.data.equals(DATA)).toBe(true);
    expect(got.metadata).toEqual(META);
    expect(got.integrity).toBe(sync.integrity);
    const ours = await readStoreEntry(dir, 'page 1');
    expect(ours.status).toBe('found');
    // Nothing left behind in tmp/.
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    expect((await cacache.verify(dir)).badContentCount).toBe(0);
  });

  it('links a key to content already there, and writes a deletion line only for a key it has a bucket for', async () => {
    const dir = tempDir();
    const { integrity, size } = writeEntrySync(dir, 'a', DATA, META);
    linkEntrySync(dir, 'b', integrity, size, { n: 2 });
    expect((await cacache.get(dir, 'b')).metadata).toEqual({ n: 2 });
    deleteEntrySync(dir, 'a');
    expect(await cacache.get.info(dir, 'a')).toBeNull();
    expect((await readStoreEntry(dir, 'a')).status).toBe('missing');
    deleteEntrySync(dir, 'never stored');
    expect(existsSync(bucketPath(dir, 'never stored'))).toBe(false);
    // The same bytes again: the content file stays the one written first.
    const before = filesUnder(join(dir, 'content-v2'));
    writeEntrySync(dir, 'c', DATA, META);
    expect(filesUnder(join(dir, 'content-v2'))).toEqual(before);
  });

  it('makes its directories 0700 and files 0600 under umask 000', () => {
    const dir = tempDir();
    const old = process.umask(0);
    try {
      writeEntrySync(dir, 'private', DATA, META);
    } finally {
      process.umask(old);
    }
    const files = filesUnder(dir);
    expect(files.length).toBe(2);
    for (const file of files) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    }
  });

  it('throws when the store cannot be written, leaving no temp file and no index line', () => {
    const dir = tempDir();
    writeEntrySync(dir, 'first', DATA, META); // makes tmp/
    // A file where the content tree should be: no directory can be made under it (root or not).
    rmSync(join(dir, 'content-v2'), { recursive: true });
    writeFileSync(join(dir, 'content-v2'), 'not a directory');
    expect(() => writeEntrySync(dir, 'second', Buffer.from('{"other":true}'), META)).toThrow(/ENOTDIR|EEXIST/);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    expect(existsSync(bucketPath(dir, 'second'))).toBe(false);
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
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
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

  it('leaves a consistent store when the process is killed in the middle of a listing', async () => {
    const dir = join(tempDir(), 'http');
    const url = pathToFileURL(builtModule('cache/response-cache.js')).href;
    // A listing of 400 pages, one a turn as paging does; the process kills itself part-way.
    const code = `
      const { ResponseCache } = await import(${JSON.stringify(url)});
      const cache = ResponseCache.open(${JSON.stringify(dir)});
      for (let i = 0; i < 400; i++) {
        cache.putLater('page ' + i, { page: i, exercises: Array.from({ length: 25 }, (_, n) => ({ id: 'E' + i + '_' + n })) }, { now: 1000 });
        await new Promise((resolve) => setImmediate(resolve));
        if (i === 250) process.kill(process.pid, 'SIGKILL');
      }`;
    const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', (_code, sig) => resolve(sig));
    });
    expect(signal).toBe('SIGKILL');

    // Every key the index names reads back whole, through cacache and through our reader.
    const listed = Object.keys(await cacache.ls(dir));
    expect(listed.length).toBeGreaterThan(200);
    expect(listed.length).toBeLessThanOrEqual(251);
    for (const key of listed) {
      expect((await readStoreEntry(dir, key)).status).toBe('found');
      const page = Number(key.split(' ')[1]);
      expect(JSON.parse((await cacache.get(dir, key)).data.toString('utf8'))).toMatchObject({ page });
    }
    // Pages are written in order: those listed are the first ones.
    expect(listed.map((key) => Number(key.split(' ')[1])).sort((a, b) => a - b)).toEqual(listed.map((_, i) => i));
    expect(await cacache.verify(dir)).toMatchObject({ badContentCount: 0, missingContent: 0 });
    expect(readFileSync(bucketPath(dir, listed[0]!), 'utf8')).toMatch(/^\n[0-9a-f]{40}\t/);
  });
});
