/**
 * The write side of the store, in cacache's on-disk format, written as cacache's own put() and
 * index insert write it (cacache 20: lib/content/write.js, lib/entry-index.js), so cacache and
 * store-read.ts read it back alike (test/cache/store-write.test.ts checks both):
 *
 * - content is content-addressed: the bytes go to `tmp/<random>` and are renamed to
 *   `content-v2/sha512/<hex as aa/bb/rest>` unless that file is there already (two writers of
 *   the same bytes agree, and content in place is never overwritten);
 * - an index entry is a line appended to the key's bucket, `\n<sha1 of the JSON>\t<JSON>`
 *   (a torn line is ignored on read; a deletion is an entry with a null integrity).
 *
 * Start-up only in part (docs/development.md "How start-up works"): cacache's write path is a
 * vendor file of ~100 KB that every cache miss would load and compile; these few calls are what
 * a miss needs. Compacting a bucket, which is rare, still goes through cacache. Directories are
 * made 0700 and files 0600, whatever the umask (cache-dir.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { appendFile, chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { contentPath, bucketPath, pickDigest } from './store-read.js';
import { loadCacacheIndex } from '../vendor/cacache.js';

/** An index bucket this large has seen many rewrites of one key: compact it to the newest line. */
const COMPACT_BUCKET_BYTES = 16 * 1024;

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The sha512 digest of `data` as cacache names it: where its content goes, and its integrity, `sha512-<base64>`. */
export function contentDigest(data: Buffer): { algorithm: 'sha512'; base64: string; integrity: string } {
  const base64 = createHash('sha512').update(data).digest('base64');
  return { algorithm: 'sha512', base64, integrity: `sha512-${base64}` };
}

/** The line appended to a bucket for `key`: `\n<sha1 of the JSON>\t<JSON>` (a null integrity forgets the key). */
export function indexLine(key: string, integrity: string | null, size: number | undefined, metadata: unknown): string {
  const json = JSON.stringify({ key, integrity, time: Date.now(), size, metadata });
  return `\n${createHash('sha1').update(json).digest('hex')}\t${json}`;
}

/** Writes `data` as content (see above) and returns its integrity, `sha512-<base64>`. */
async function writeContent(dir: string, data: Buffer): Promise<string> {
  const digest = contentDigest(data);
  const target = contentPath(dir, digest);
  if (!(await exists(target))) {
    const tmpDir = join(dir, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    const tmp = join(tmpDir, randomUUID());
    try {
      await writeFile(tmp, data, { flag: 'wx', mode: 0o600 });
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      // Another writer may have put the same bytes there meanwhile: the same content either way.
      await rename(tmp, target);
    } finally {
      await rm(tmp, { force: true });
    }
  }
  return digest.integrity;
}

/** Appends an index line for `key` (a null integrity forgets it). */
async function insertIndex(dir: string, key: string, integrity: string | null, size: number | undefined, metadata: unknown): Promise<void> {
  const bucket = bucketPath(dir, key);
  await mkdir(dirname(bucket), { recursive: true, mode: 0o700 });
  await appendFile(bucket, indexLine(key, integrity, size, metadata), { mode: 0o600 });
}

/** Stores `data` under `key` with `metadata`; resolves to its integrity (SRI string) and size. */
export async function writeEntry(dir: string, key: string, data: Buffer, metadata: unknown): Promise<{ integrity: string; size: number }> {
  const integrity = await writeContent(dir, data);
  await insertIndex(dir, key, integrity, data.length, metadata);
  return { integrity, size: data.length };
}

/** Points `key` at content already in the store (the same bytes under another key, or new metadata after a 304). */
export async function linkEntry(dir: string, key: string, integrity: string, size: number, metadata: unknown): Promise<void> {
  await insertIndex(dir, key, integrity, size, metadata);
}

/** Forgets `key` (a deletion line, as cacache writes one); its content stays for any other key that shares it. */
export async function deleteEntry(dir: string, key: string): Promise<void> {
  await insertIndex(dir, key, null, undefined, undefined);
}

/**
 * Removes a content file that failed verification. It is wrong for every key that names it,
 * and content in place is never overwritten, so it must go before the same bytes can be
 * stored again.
 */
export async function removeContent(dir: string, integrity: string): Promise<void> {
  const digest = pickDigest(integrity);
  if (digest) await rm(contentPath(dir, digest), { force: true });
}

/** Whether a bucket of this size has seen enough rewrites of its key to be compacted. */
export function bucketNeedsCompacting(bucketBytes: number): boolean {
  return bucketBytes > COMPACT_BUCKET_BYTES;
}

/** Rewrites `key`'s bucket to its newest line (through cacache: rare). */
export async function compactBucket(dir: string, key: string): Promise<void> {
  const index = await loadCacacheIndex();
  await index.compact(dir, key, (a, b) => a.key === b.key);
  // cacache writes the new bucket as the umask lets it.
  await chmod(bucketPath(dir, key), 0o600);
}
