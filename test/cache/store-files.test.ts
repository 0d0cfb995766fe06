/**
 * The store on disk (src/cache/store-files.ts): one file per key, whole or absent, private,
 * read only when it is a regular file; and ResponseCache's writes: in order per key, awaited
 * by a read of the key and by flush(), logged when the store refuses them, and leaving the
 * store consistent when the process is killed part-way through a run of them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/cache/response-cache.js';
import { entryNames, entryPath, readEntry, readEntryFile, removeEntry, writeEntry, writeEntrySync } from '../../src/cache/store-files.js';
import { builtModule } from './support.js';
import { tempDir } from '../helpers/temp.js';

const DATA = Buffer.from(JSON.stringify({ exercises: [{ id: 'Push_Up', name: 'Push-Up ü' }], pagination: { total: 1 } }));
const META = { storedAt: 1700000000000, etag: '"p1"' };

describe('the entry files', () => {
  it('read back whole what was written, per key, and nothing of a key never written', async () => {
    const dir = tempDir();
    expect(readEntry(dir, 'page 1')).toEqual({ status: 'missing' });
    await writeEntry(dir, 'page 1', META, DATA);
    writeEntrySync(dir, 'page 2', { n: 2 }, DATA);
    expect(readEntry(dir, 'page 1')).toEqual({ status: 'found', entry: { meta: META, body: DATA } });
    expect(readEntry(dir, 'page 2')).toMatchObject({ status: 'found', entry: { meta: { n: 2 } } });
    expect(entryNames(dir).sort()).toEqual([entryPath(dir, 'page 1'), entryPath(dir, 'page 2')].map((p) => p.slice(dir.length + 1)).sort());
    expect(readEntryFile(dir, entryNames(dir)[0]!)?.body.equals(DATA)).toBe(true);
    removeEntry(dir, 'page 1');
    removeEntry(dir, 'never stored');
    expect(readEntry(dir, 'page 1').status).toBe('missing');
    // no key in a file name
    expect(readdirSync(dir).some((name) => name.includes('page'))).toBe(false);
  });

  it('are 0600 under umask 000, and a rewrite replaces the file whole', async () => {
    const dir = tempDir();
    const old = process.umask(0);
    try {
      await writeEntry(dir, 'private', META, DATA);
      await writeEntry(dir, 'private', { ...META, etag: '"p2"' }, Buffer.from('{}'));
    } finally {
      process.umask(old);
    }
    expect(statSync(entryPath(dir, 'private')).mode & 0o777).toBe(0o600);
    expect(readEntry(dir, 'private')).toEqual({ status: 'found', entry: { meta: { ...META, etag: '"p2"' }, body: Buffer.from('{}') } });
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('read a FIFO or a symlink in place of an entry as corrupt, without blocking or following it', async () => {
    const dir = tempDir();
    await writeEntry(dir, 'real', META, DATA);
    symlinkSync(entryPath(dir, 'real'), entryPath(dir, 'linked'));
    expect(readEntry(dir, 'linked')).toMatchObject({ status: 'corrupt', reason: /not a regular file/ });
    execFileSync('mkfifo', [entryPath(dir, 'fifo')]);
    expect(readEntry(dir, 'fifo')).toMatchObject({ status: 'corrupt', reason: /not a regular file/ });
  });

  it('throw when the store cannot be written, and leave nothing behind', async () => {
    const dir = join(tempDir(), 'http');
    mkdirSync(dir);
    await writeEntry(dir, 'first', META, DATA);
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'not a directory');
    await expect(writeEntry(dir, 'second', META, DATA)).rejects.toThrow(/ENOTDIR|ENOENT/);
    expect(() => writeEntrySync(dir, 'second', META, DATA)).toThrow(/ENOTDIR|ENOENT/);
    expect(existsSync(join(dir, '..', 'http'))).toBe(true);
  });
});

describe('ResponseCache writes', () => {
  const lookup = { now: 2000, ttlMs: 60_000 };

  it('happen in the order asked for, and a read of the key or a flush waits for those under way', async () => {
    const dir = join(tempDir(), 'http');
    const cache = ResponseCache.open(dir, { log: (line) => expect.fail(line) });
    const first = cache.put('k', { v: 1 }, { now: 1000 });
    const second = cache.put('k', { v: 2 }, { now: 1001 });
    expect(await cache.get('k', lookup)).toMatchObject({ status: 'fresh', body: { v: 2 } });
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    void cache.put('k', { v: 3 }, { now: 1002 });
    await cache.flush();
    expect(await ResponseCache.open(dir).get('k', lookup)).toMatchObject({ body: { v: 3 } });
  });

  it('logs a write the store refuses and goes on: the run never fails for its cache', async () => {
    const blocked = join(tempDir(), 'file');
    writeFileSync(blocked, 'not a directory');
    const log: string[] = [];
    const broken = ResponseCache.open(join(blocked, 'http'), { log: (line) => log.push(line) });
    await expect(broken.put('k', { v: 1 }, { now: 1000 })).resolves.toBe(false);
    await expect(broken.flush()).resolves.toBeUndefined();
    expect(log.join('\n')).toMatch(/cannot store the answer for k/);
  });

  it('logs each page it cannot write once the store breaks part-way, and keeps the pages written before', async () => {
    const dir = join(tempDir(), 'http');
    const log: string[] = [];
    const cache = ResponseCache.open(dir, { log: (line) => log.push(line) });
    await cache.put('page 1', { page: 1 }, { now: 1000 });
    // The store's directory replaced by a file (root or not, nothing can be written under it).
    const saved = join(dir, '..', 'http-saved');
    renameSync(dir, saved);
    writeFileSync(dir, 'not a directory');
    await expect(Promise.all([cache.put('page 2', { page: 2 }, { now: 1000 }), cache.put('page 3', { page: 3 }, { now: 1000 })])).resolves.toEqual([
      false,
      false,
    ]);
    expect(log.filter((line) => /cannot store the answer for page [23]/.test(line))).toHaveLength(2);
    rmSync(dir);
    renameSync(saved, dir);
    expect(await cache.get('page 1', lookup)).toMatchObject({ status: 'fresh', body: { page: 1 } });
    expect(await cache.get('page 2', lookup)).toEqual({ status: 'miss' });
    // Nothing half-written was left behind: every file is a whole entry.
    expect(readdirSync(dir).every((name) => name.endsWith('.entry'))).toBe(true);
  });

  it('leaves a consistent store when the process is killed in the middle of a listing, first run or not', async () => {
    const dir = join(tempDir(), 'http');
    const url = pathToFileURL(builtModule('cache/response-cache.js')).href;
    // A listing of 400 pages, one after the other as paging stores them, stored at `now`; the process kills itself at page 250.
    const listing = async (now: number): Promise<void> => {
      const code = `
        const { ResponseCache } = await import(${JSON.stringify(url)});
        const cache = ResponseCache.open(${JSON.stringify(dir)});
        for (let i = 0; i < 400; i++) {
          await cache.put('page ' + i, { page: i, exercises: Array.from({ length: 25 }, (_, n) => ({ id: 'E' + i + '_' + n })) }, { now: ${now} });
          if (i === 250) process.kill(process.pid, 'SIGKILL');
        }`;
      const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' });
        child.on('error', reject);
        child.on('close', (_code, sig) => resolve(sig));
      });
      expect(signal).toBe('SIGKILL');
    };
    /** Every entry file of the store, checked to read back whole (the store's integrity check); with when each was stored. */
    const consistent = async (): Promise<Map<number, number>> => {
      const stored = new Map<number, number>();
      for (const name of entryNames(dir)) {
        const entry = readEntryFile(dir, name);
        expect(entry, name).toBeDefined();
        expect(readEntry(dir, entry!.key).status).toBe('found');
        const page = Number(entry!.key.split(' ')[1]);
        expect(JSON.parse(entry!.body.toString('utf8'))).toMatchObject({ page });
        stored.set(page, entry!.meta.storedAt as number);
      }
      // A kill may leave a temp file behind: never an entry, never read, removed by `cache clear`.
      expect(
        readdirSync(dir)
          .filter((name) => !name.endsWith('.entry'))
          .every((name) => name.endsWith('.tmp')),
      ).toBe(true);
      return stored;
    };

    // A first run: new content, written on the thread pool; whatever was written is whole.
    await listing(1000);
    const first = await consistent();
    expect(first.size).toBeGreaterThan(0);
    expect(first.size).toBeLessThanOrEqual(251);
    // Every page stored, then the listing fetched again and killed: its writes go in order.
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
