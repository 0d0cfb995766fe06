/**
 * Start-up only (docs/development.md "How start-up works"): cacache would read the same.
 *
 * The read side of the cache on a hit: one entry of a cacache store, read straight from
 * cacache's on-disk format with node:crypto alone. Loading cacache itself costs tens of
 * milliseconds in a fresh process (bench/cache-load.mjs), more than the whole start-up
 * budget of a `show` answered from the cache; this reads the same files with the same
 * checks cacache's get() makes:
 *
 * - the index bucket `index-v5/<sha256(key) as aa/bb/rest>` is a list of lines
 *   `<sha1 of the JSON>\t<JSON entry>`; a line whose hash does not match is ignored (torn or
 *   corrupt), and the last valid line for the key wins (a null integrity means deleted);
 * - the content `content-v2/<algorithm>/<hex digest as aa/bb/rest>` must have the entry's
 *   size and hash to the entry's integrity (Subresource Integrity, `sha512-<base64>`).
 *
 * Writes, deletions, listing and clearing go through cacache (store-write.ts). The format
 * versions below are those of the cacache release in package.json; test/cache checks they
 * still match it, so an upgrade that changes the format cannot slip by.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const INDEX_DIR = 'index-v5';
export const CONTENT_DIR = 'content-v2';

/** The algorithms cacache may name, strongest first (ssri's order for these). */
const ALGORITHMS = ['sha512', 'sha384', 'sha256'] as const;

export interface IndexEntry {
  key: string;
  integrity: string;
  time: number;
  size?: number;
  metadata?: unknown;
}

export type StoreRead =
  | { status: 'found'; entry: IndexEntry; data: Buffer; bucketBytes: number }
  | { status: 'missing'; bucketBytes: number }
  /** The index names content that is absent, of the wrong size or hash: drop the entry, never serve it. */
  | { status: 'corrupt'; entry: IndexEntry; reason: string }
  /** An integrity this reader does not handle (a store written by other code): ask cacache itself. */
  | { status: 'unsupported'; entry: IndexEntry };

function sha(algorithm: string, data: string | Buffer, encoding: 'hex'): string {
  return createHash(algorithm).update(data).digest(encoding);
}

function segments(hex: string): string[] {
  return [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4)];
}

/** cacache's bucket file for a key. */
export function bucketPath(dir: string, key: string): string {
  return join(dir, INDEX_DIR, ...segments(sha('sha256', key, 'hex')));
}

/** The valid index lines of a bucket, oldest first. */
export function parseBucket(text: string): Array<Record<string, unknown>> {
  const entries: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const [hash, json] = line.split('\t');
    if (!json || sha('sha1', json, 'hex') !== hash) continue;
    try {
      const parsed: unknown = JSON.parse(json);
      if (parsed && typeof parsed === 'object') entries.push(parsed as Record<string, unknown>);
    } catch {
      // a line with the right hash but no JSON: skip it as cacache does
    }
  }
  return entries;
}

/** The single digest of the strongest algorithm in an SRI string, or undefined when that is not what it holds. */
export function pickDigest(integrity: string): { algorithm: string; base64: string } | undefined {
  const hashes = integrity
    .trim()
    .split(/\s+/)
    .map((h) => /^([a-z0-9]+)-([A-Za-z0-9+/]+={0,2})(\?.*)?$/.exec(h));
  for (const algorithm of ALGORITHMS) {
    const found = hashes.filter((m) => m?.[1] === algorithm);
    if (found.length === 1) return { algorithm, base64: found[0]![2]! };
    if (found.length > 1) return undefined;
  }
  return undefined;
}

/** Where cacache keeps the content of a digest. */
export function contentPath(dir: string, digest: { algorithm: string; base64: string }): string {
  return join(dir, CONTENT_DIR, digest.algorithm, ...segments(Buffer.from(digest.base64, 'base64').toString('hex')));
}

/** Opened without blocking (a FIFO planted in the store would hang a plain open) and without following a symlink. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** A file in the store that is not a regular file (a FIFO, a device, a symlink): never read, never served. */
export class NotRegularFileError extends Error {}

/**
 * A whole file, or undefined when it is not there. Synchronous on purpose: these files are a
 * few KiB, and node:fs is loaded at start-up anyway while node:fs/promises costs ~1 ms more
 * on a path whose whole budget is a few ms. Anything but a regular file throws
 * NotRegularFileError before a byte is read.
 */
function readOrMissing(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ELOOP' || code === 'ENXIO') throw new NotRegularFileError(`${path} is not a regular file`);
    throw err;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The entry stored under `key` and its verified content. */
export async function readStoreEntry(dir: string, key: string): Promise<StoreRead> {
  const bucket = readOrMissing(bucketPath(dir, key));
  if (bucket === undefined) return { status: 'missing', bucketBytes: 0 };
  let latest: Record<string, unknown> | undefined;
  for (const e of parseBucket(bucket.toString('utf8'))) if (e.key === key) latest = e;
  if (!latest || typeof latest.integrity !== 'string' || latest.integrity === '') return { status: 'missing', bucketBytes: bucket.length };
  const entry: IndexEntry = {
    key,
    integrity: latest.integrity,
    time: typeof latest.time === 'number' ? latest.time : 0,
    ...(typeof latest.size === 'number' ? { size: latest.size } : {}),
    metadata: latest.metadata,
  };
  const digest = pickDigest(entry.integrity);
  if (!digest) return { status: 'unsupported', entry };
  let data: Buffer | undefined;
  try {
    data = readOrMissing(contentPath(dir, digest));
  } catch (err) {
    if (err instanceof NotRegularFileError) return { status: 'corrupt', entry, reason: 'its content is not a regular file' };
    throw err;
  }
  if (data === undefined) return { status: 'corrupt', entry, reason: 'its content file is missing' };
  if (entry.size !== undefined && data.length !== entry.size) {
    return { status: 'corrupt', entry, reason: `its content has ${data.length} bytes, not ${entry.size}` };
  }
  const expected = Buffer.from(digest.base64, 'base64');
  if (!createHash(digest.algorithm).update(data).digest().equals(expected)) {
    return { status: 'corrupt', entry, reason: 'its content fails the integrity check' };
  }
  return { status: 'found', entry, data, bucketBytes: bucket.length };
}
