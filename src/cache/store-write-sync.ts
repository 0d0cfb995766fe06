/**
 * The response cache's own writes, synchronous: the format of store-write.ts (content renamed
 * into place from `tmp/`, then an index line appended to the key's bucket; cacache reads both),
 * with as few system calls as the format allows.
 *
 * Why synchronous, and why not store-write.ts's promises: a listing of 800 pages writes 800
 * entries while it waits for the next page, and on its thread-pool path each entry cost more
 * in promises, FileHandles and hops than in the writes themselves (a dozen calls a page). Here an
 * entry is an existence check of its content, four calls to write content that is not there
 * yet (open, write, close, rename), and three to append its index line (open, write, close). Directories are made only when a write finds one missing (ENOENT), so a store in use
 * costs no mkdir. The CLI runs these while it waits for an answer (ResponseCache.putLater); the
 * team proxy keeps store-write.ts's asynchronous path, as a server must.
 *
 * The order keeps the store consistent whenever the process dies: content is complete under
 * its final name before any index line names it, and a torn index line is ignored by every
 * reader (its hash does not match). What a crash can leave is content no line names, which
 * `cacache verify` reclaims and nothing reads.
 *
 * Files are created 0600 and directories 0700 (the umask can only take bits away); the one
 * file of the store another writer makes, a bucket rewritten by cacache's compaction, is made
 * 0600 after it (store-write.ts compactBucket).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** Writes `data` as content unless the same bytes are there already; resolves to its integrity. */
function writeContentSync(dir: string, data: Buffer): string {
  const digest = contentDigest(data);
  const target = contentPath(dir, digest);
  if (existsSync(target)) return digest.integrity;
  const tmpDir = join(dir, 'tmp');
  const tmp = join(tmpDir, randomUUID());
  const fd = withDir(tmpDir, () => openSync(tmp, 'wx', 0o600));
  try {
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
    // Another writer may have put the same bytes there meanwhile: the same content either way.
    withDir(dirname(target), () => renameSync(tmp, target));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return digest.integrity;
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

/** Stores `data` under `key` with `metadata`; returns its integrity (SRI string) and size. Throws on a file-system error. */
export function writeEntrySync(dir: string, key: string, data: Buffer, metadata: unknown): { integrity: string; size: number } {
  const integrity = writeContentSync(dir, data);
  appendIndexSync(dir, key, indexLine(key, integrity, data.length, metadata));
  return { integrity, size: data.length };
}

/** Points `key` at content already in the store (the same bytes under another key). */
export function linkEntrySync(dir: string, key: string, integrity: string, size: number, metadata: unknown): void {
  appendIndexSync(dir, key, indexLine(key, integrity, size, metadata));
}

/** Forgets `key` with a deletion line, as cacache writes one, when it has a bucket at all (none is written for what was never there). */
export function deleteEntrySync(dir: string, key: string): void {
  if (existsSync(bucketPath(dir, key))) appendIndexSync(dir, key, indexLine(key, null, undefined, undefined));
}
