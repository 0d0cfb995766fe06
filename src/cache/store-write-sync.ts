/**
 * The response cache's index writes, synchronous: an index line appended to a key's bucket in
 * store-write.ts's format (cacache reads it), pointing at content already in the store. A
 * listing fetched again (--refresh, an expired page) finds every page's bytes stored already:
 * each page is then an existence check and three calls (open, write, close), where the
 * thread-pool path of store-write.ts costs a dozen calls with their promises, FileHandles and
 * hops, more than the writes themselves. New content (a file, its directories) stays on that
 * path (ResponseCache.writeData): such calls may wait on the file system's journal, which must
 * not hold the event loop while a listing's next answer is due.
 *
 * A bucket's directory is made only when the append finds it missing (ENOENT), so a store in
 * use costs no mkdir. Buckets are created 0600 and directories 0700 (the umask can only take
 * bits away); the one file of the store another writer makes, a bucket rewritten by cacache's
 * compaction, is made 0600 after it (store-write.ts compactBucket). A line torn by a crash is
 * ignored by every reader (its hash does not match).
 */
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { bucketPath, contentPath } from './store-read.js';
import { contentDigest, indexLine } from './store-write.js';

/** Writes all of `data` at the file's position (a short write, as on a full disk, goes on until it throws). */
function writeAll(fd: number, data: Buffer): void {
  for (let done = 0; done < data.length;) {
    const wrote = writeSync(fd, data, done, data.length - done);
    if (wrote === 0) throw new Error('the file system took no more bytes');
    done += wrote;
  }
}

/** Runs `act`; when it fails because a directory on the way is missing, makes `dir` (0700) and runs it once more. */
function withDir<T>(dir: string, act: () => T): T {
  try {
    return act();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return act();
  }
}

/** Appends one index line to `key`'s bucket. */
function appendIndexSync(dir: string, key: string, line: string): void {
  const bucket = bucketPath(dir, key);
  const fd = withDir(dirname(bucket), () => openSync(bucket, 'a', 0o600));
  try {
    writeAll(fd, Buffer.from(line));
  } finally {
    closeSync(fd);
  }
}

/**
 * When the store holds `data` already (a page fetched again), points `key` at it with
 * `metadata` and returns its integrity and size; else writes nothing and returns undefined
 * (new content is store-write.ts writeEntry's). Throws on a file-system error.
 */
export function linkIfStored(dir: string, key: string, data: Buffer, metadata: unknown): { integrity: string; size: number } | undefined {
  const digest = contentDigest(data);
  if (!existsSync(contentPath(dir, digest))) return undefined;
  appendIndexSync(dir, key, indexLine(key, digest.integrity, data.length, metadata));
  return { integrity: digest.integrity, size: data.length };
}

/** Points `key` at content already in the store (the same bytes under another key). */
export function linkEntrySync(dir: string, key: string, integrity: string, size: number, metadata: unknown): void {
  appendIndexSync(dir, key, indexLine(key, integrity, size, metadata));
}

/** Forgets `key` with a deletion line, as cacache writes one, when it has a bucket at all (none is written for what was never there). */
export function deleteEntrySync(dir: string, key: string): void {
  if (existsSync(bucketPath(dir, key))) appendIndexSync(dir, key, indexLine(key, null, undefined, undefined));
}
