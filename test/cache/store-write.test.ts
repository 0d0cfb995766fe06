/**
 * The store is written in cacache's own format without loading cacache (src/cache/store-write.ts):
 * what it writes, cacache reads back, entry for entry, and so does our reader; what cacache
 * writes, ours reads. Deletions and links are seen by both; files are private whatever the umask.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import cacache from 'cacache';
import { describe, expect, it } from 'vitest';
import { deleteEntry, linkEntry, removeContent, writeEntry } from '../../src/cache/store-write.js';
import { bucketPath, readStoreEntry } from '../../src/cache/store-read.js';
import { tempDir } from '../helpers/temp.js';

const DATA = Buffer.from(JSON.stringify({ id: 'Push_Up', name: 'Push-Up', note: 'ü → ✓' }));
const META = { url: 'https://example.test/exercise/Push_Up', storedAt: 1700000000000, etag: '"abc"' };

describe('the store written without cacache', () => {
  it('is read back by cacache itself: data, integrity, size and metadata', async () => {
    const dir = tempDir();
    const written = await writeEntry(dir, 'k1', DATA, META);
    const integrity = String(await cacache.put(tempDir(), 'k1', DATA));
    expect(written).toEqual({ integrity, size: DATA.length });
    const got = await cacache.get(dir, 'k1');
    expect(got.data.equals(DATA)).toBe(true);
    expect(got.metadata).toEqual(META);
    expect(got.integrity).toBe(integrity);
    expect(got.size).toBe(DATA.length);
    const listed = await cacache.ls(dir);
    expect(Object.keys(listed)).toEqual(['k1']);
    // cacache verifies the whole store the same way.
    expect((await cacache.verify(dir)).badContentCount).toBe(0);
  });

  it('is read back by our own reader, and reads what cacache wrote', async () => {
    const dir = tempDir();
    await writeEntry(dir, 'ours', DATA, META);
    await cacache.put(dir, 'theirs', DATA, { metadata: META });
    for (const key of ['ours', 'theirs']) {
      const read = await readStoreEntry(dir, key);
      expect(read.status).toBe('found');
      if (read.status === 'found') {
        expect(read.data.equals(DATA)).toBe(true);
        expect(read.entry.metadata).toEqual(META);
      }
    }
  });

  it('writes index lines shaped as cacache writes them', async () => {
    const dir = tempDir();
    await writeEntry(dir, 'same-key', DATA, META);
    await cacache.index.insert(dir, 'same-key', (await cacache.get.info(dir, 'same-key'))!.integrity, { metadata: META, size: DATA.length });
    const lines = readFileSync(bucketPath(dir, 'same-key'), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    const [ours, theirs] = lines.map((l) => JSON.parse(l.split('\t')[1]!) as Record<string, unknown>);
    expect(Object.keys(ours!)).toEqual(Object.keys(theirs!));
    expect({ ...ours, time: 0 }).toEqual({ ...theirs, time: 0 });
  });

  it('keeps one content file for the same bytes under two keys, and links a key to it', async () => {
    const dir = tempDir();
    const a = await writeEntry(dir, 'a', DATA, { n: 1 });
    const b = await writeEntry(dir, 'b', DATA, { n: 2 });
    expect(b.integrity).toBe(a.integrity);
    await linkEntry(dir, 'c', a.integrity, a.size, { n: 3 });
    expect((await cacache.get(dir, 'c')).metadata).toEqual({ n: 3 });
    const algoDir = join(dir, 'content-v2', 'sha512');
    const files = readdirSync(algoDir, { recursive: true }).filter((p) => statSync(join(algoDir, String(p))).isFile());
    expect(files).toHaveLength(1);
    // Nothing left behind in tmp/.
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('forgets a deleted key for both readers, leaving content other keys share', async () => {
    const dir = tempDir();
    await writeEntry(dir, 'gone', DATA, META);
    await writeEntry(dir, 'kept', DATA, META);
    await deleteEntry(dir, 'gone');
    expect(await cacache.get.info(dir, 'gone')).toBeNull();
    expect((await readStoreEntry(dir, 'gone')).status).toBe('missing');
    expect((await cacache.get(dir, 'kept')).data.equals(DATA)).toBe(true);
  });

  it('removes a content file that failed verification, so the same bytes can be stored again', async () => {
    const dir = tempDir();
    const { integrity } = await writeEntry(dir, 'k', DATA, META);
    await removeContent(dir, integrity);
    expect((await readStoreEntry(dir, 'k')).status).toBe('corrupt');
    await writeEntry(dir, 'k', DATA, META);
    expect((await readStoreEntry(dir, 'k')).status).toBe('found');
  });

  it('makes its directories 0700 and files 0600 under umask 000', async () => {
    const dir = tempDir();
    const old = process.umask(0);
    try {
      await writeEntry(dir, 'private', DATA, META);
    } finally {
      process.umask(old);
    }
    const bucket = bucketPath(dir, 'private');
    expect(statSync(bucket).mode & 0o777).toBe(0o600);
    expect(statSync(join(bucket, '..')).mode & 0o777).toBe(0o700);
    const info = await cacache.get.info(dir, 'private');
    expect(statSync(info!.path).mode & 0o777).toBe(0o600);
  });
});
