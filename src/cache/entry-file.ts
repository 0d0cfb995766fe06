/**
 * The cache store on disk: one file per key, nothing else. An entry's file is named by the
 * SHA-256 of its key (`<dir>/<64 hex>.entry`, so a key never reaches a file name) and holds
 *
 *     <JSON envelope>\n<body bytes>
 *
 * The envelope (one line: JSON.stringify writes no newline) names the key, the caller's meta
 * (the http-cache-semantics policy and when it was stored: response-cache.ts, the proxy's
 * answer-store.ts) and the body's size and SHA-256. A file is written whole to a temp file in
 * the same directory and renamed over the entry, so a reader sees the old file or the new one,
 * never half of one; a crash that tears a file anyway (power lost before the file system wrote
 * the renamed bytes) leaves one whose size or digest does not match, which reads as a miss
 * (`corrupt`), never as an answer. That check is why an entry is not fsynced: the cache is an
 * optimisation, and a sync per answer would cost a listing of 800 pages seconds.
 *
 * Entries are opened without blocking and without following a symlink, fstat'ed, and read only
 * when they are regular files within ENTRY_MAX_BYTES: a FIFO or a link planted in the store is
 * a corrupt entry, never a hang. Files are 0600 and the directory 0700 (cache-dir.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JSON_SIZE_CAP } from '../defaults.js';
import { RefusedFileError, readRegularFileSync } from '../util/safe-open.js';

/** Envelope and body together: the largest JSON answer the client accepts, and room for its envelope. */
const ENTRY_MAX_BYTES = JSON_SIZE_CAP + 64 * 1024;
/** An entry file's name: the key's SHA-256 and this suffix. Anything else in the directory is not an entry (a temp file, an old cacache store). */
const ENTRY_SUFFIX = '.entry';
const ENTRY_NAME = /^[0-9a-f]{64}\.entry$/;
/** Bumped when the file layout changes: an older entry then reads as corrupt, a miss. */
const FORMAT = 1;

export interface StoredEntry {
  /** What the writer kept beside the body (policy, time): checked by the caller, a miss when it is not what it writes. */
  meta: Record<string, unknown>;
  body: Buffer;
}

export type EntryRead = { status: 'found'; entry: StoredEntry } | { status: 'missing' } | { status: 'corrupt'; reason: string };

interface Envelope {
  v: number;
  key: string;
  size: number;
  sha256: string;
  meta: Record<string, unknown>;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The file of `key` in the store at `dir`. */
export function entryPath(dir: string, key: string): string {
  return join(dir, `${sha256(key)}${ENTRY_SUFFIX}`);
}

/**
 * The whole file at `path` when it is a regular file within the bound (util/safe-open.ts, links
 * refused too); a string saying why not; undefined when absent.
 */
function readRegular(path: string): Buffer | string | undefined {
  try {
    return readRegularFileSync(path, { maxBytes: ENTRY_MAX_BYTES, noFollow: true });
  } catch (err) {
    if (err instanceof RefusedFileError)
      return err.reason === 'too large' ? `it has more bytes than an entry may (${ENTRY_MAX_BYTES})` : 'it is not a regular file';
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'ENXIO') return 'it is not a regular file';
    throw err;
  }
}

/** The envelope of a file's first line, when it is one this store wrote (for `key`, when given). */
function parseEnvelope(text: string, key: string | undefined): Envelope | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'its envelope is not JSON';
  }
  const e = parsed as Partial<Envelope> | null;
  if (typeof e !== 'object' || e === null || e.v !== FORMAT) return 'its envelope is not in this format';
  if (typeof e.key !== 'string' || (key !== undefined && e.key !== key)) return 'it belongs to another key';
  if (typeof e.size !== 'number' || typeof e.sha256 !== 'string' || typeof e.meta !== 'object' || e.meta === null) return 'its envelope is incomplete';
  return e as Envelope;
}

/** An entry file's bytes checked whole: its envelope (for `key`, when given), the body's size and digest. */
function decode(file: Buffer, key: string | undefined): Envelope | string {
  const newline = file.indexOf(0x0a);
  if (newline < 0) return 'it has no envelope line';
  const envelope = parseEnvelope(file.toString('utf8', 0, newline), key);
  if (typeof envelope === 'string') return envelope;
  const body = file.subarray(newline + 1);
  if (body.length !== envelope.size) return `its body has ${body.length} bytes, not ${envelope.size}`;
  if (sha256(body) !== envelope.sha256) return 'its body fails the integrity check';
  return envelope;
}

const bodyOf = (file: Buffer): Buffer => file.subarray(file.indexOf(0x0a) + 1);

/**
 * The entry of `key`: synchronous, one open and one read (these files are small, node:fs is
 * loaded at start-up anyway, and a cache hit has a budget of a few ms). File-system errors
 * other than absence throw.
 */
export function readEntry(dir: string, key: string): EntryRead {
  const file = readRegular(entryPath(dir, key));
  if (file === undefined) return { status: 'missing' };
  if (typeof file === 'string') return { status: 'corrupt', reason: file };
  const envelope = decode(file, key);
  if (typeof envelope === 'string') return { status: 'corrupt', reason: envelope };
  return { status: 'found', entry: { meta: envelope.meta, body: bodyOf(file) } };
}

/** The bytes of an entry file. */
function entryBytes(key: string, meta: Record<string, unknown>, body: Buffer): Buffer {
  const envelope: Envelope = { v: FORMAT, key, size: body.length, sha256: sha256(body), meta };
  return Buffer.concat([Buffer.from(`${JSON.stringify(envelope)}\n`), body]);
}

/** A temp file beside the entry, unique to this write (two processes writing one key each rename their own). */
function tempPathOf(path: string): string {
  return `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes `key`'s entry (temp file, then rename over the old one) on the thread pool, where a wait
 * on the file system's journal does not hold the event loop. The directory must exist.
 */
export async function writeEntry(dir: string, key: string, meta: Record<string, unknown>, body: Buffer): Promise<void> {
  const path = entryPath(dir, key);
  const temp = tempPathOf(path);
  try {
    await writeFile(temp, entryBytes(key, meta, body), { flag: 'wx', mode: 0o600 });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** writeEntry(), synchronous: for a small entry written in the same turn as its read (a 304's new policy). */
export function writeEntrySync(dir: string, key: string, meta: Record<string, unknown>, body: Buffer): void {
  const path = entryPath(dir, key);
  const temp = tempPathOf(path);
  try {
    writeFileSync(temp, entryBytes(key, meta, body), { flag: 'wx', mode: 0o600 });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** Removes `key`'s entry, if any. */
export function removeEntry(dir: string, key: string): void {
  rmSync(entryPath(dir, key), { force: true });
}

/** The entry files of the store (names only; none when there is no store yet). Temp files and an old cacache store's directories are not entries. */
export function entryNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => ENTRY_NAME.test(name));
  } catch {
    return [];
  }
}

/** A whole entry file of the store by its name (entryNames()), with the key it was written for; undefined when it is not one. */
export function readEntryFile(dir: string, name: string): ({ key: string } & StoredEntry) | undefined {
  const file = readRegular(join(dir, name));
  if (file === undefined || typeof file === 'string') return undefined;
  const envelope = decode(file, undefined);
  // A file renamed to another key's name is not that key's entry.
  if (typeof envelope === 'string' || `${sha256(envelope.key)}${ENTRY_SUFFIX}` !== name) return undefined;
  return { key: envelope.key, meta: envelope.meta, body: bodyOf(file) };
}
