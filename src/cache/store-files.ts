/**
 * The cache on disk: the user cache directory, the store's directory (`http/`, never followed through a
 * link, unlike the root), and one file per key, named by its SHA-256, holding `<envelope>\n<body>` with
 * the body's size and digest: a torn file reads as a miss, so entries are not fsynced. Directories 0700,
 * files 0600; a planted FIFO or link is a corrupt entry, never a hang.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type CachePolicy from 'http-cache-semantics';
import { CacheDirError } from '../errors.js';
import { JSON_SIZE_CAP } from '../defaults.js';
import { RefusedFileError, readRegularFileSync } from '../util/safe-open.js';
import { type Env, userDirs } from '../config/parsers.js';

export type EnvVars = Env;

/** The user cache directory, from `env`. */
export function cacheRoot(env: EnvVars, platform: NodeJS.Platform = process.platform): string {
  return userDirs(env, platform).cache;
}

/** The store of answers and records: what `cache clear` removes. */
export function httpCacheDir(root: string): string {
  return join(root, 'http');
}

/** The request ledger, beside the store, never cleared. */
export function ledgerPath(root: string): string {
  return join(root, 'ledger.json');
}

const HINT = 'Remove it (or move it aside) so the tool can make its own directory there; `exercises cache info` shows where the cache is.';

function lstatOrNone(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    const why = code === 'ENOTDIR' ? 'a file stands where a directory of its path should be' : (err as Error).message;
    throw new CacheDirError(`The cache directory ${path} cannot be used: ${why}.`, { hint: HINT, cause: err });
  }
}

/** Throws CacheDirError unless `dir` is absent or a directory; one of our own (`own`) must not be a link either. */
function checkDir(dir: string, own: boolean): void {
  const found = lstatOrNone(dir);
  if (!found || found.isDirectory()) return;
  if (found.isSymbolicLink() && own) {
    throw new CacheDirError(`Refusing to use ${dir}: it is a symlink, and the tool's cache directory is never followed elsewhere.`, {
      hint: HINT,
      details: { planted: true },
    });
  }
  if (found.isSymbolicLink()) {
    try {
      if (statSync(dir).isDirectory()) return;
    } catch (err) {
      const loop = (err as NodeJS.ErrnoException).code === 'ELOOP';
      throw new CacheDirError(`The cache directory ${dir} is a symlink ${loop ? 'that loops' : 'to nothing'}.`, { hint: HINT, cause: err });
    }
  }
  throw new CacheDirError(`The cache directory ${dir} is not a directory.`, { hint: HINT });
}

export const checkCacheRoot = (root: string): void => checkDir(root, false);
export const checkOwnDir = (dir: string): void => checkDir(dir, true);

/** Makes `dir` (and its parents) 0700; one of ours open to others is closed. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if ((stat.mode & 0o077) !== 0 && (process.getuid === undefined || stat.uid === process.getuid())) chmodSync(dir, 0o700);
}

/** The largest JSON answer accepted, and room for its envelope. */
const ENTRY_MAX_BYTES = JSON_SIZE_CAP + 64 * 1024;
/** An entry file's suffix; anything else in the directory is not an entry. */
const ENTRY_SUFFIX = '.entry';
const ENTRY_NAME = /^[0-9a-f]{64}\.entry$/;
/** Bumped when the layout changes: older entries read as corrupt. */
const FORMAT = 1;

export interface StoredEntry {
  /** What the writer kept beside the body: checked by the caller. */
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

export function entryPath(dir: string, key: string): string {
  return join(dir, `${sha256(key)}${ENTRY_SUFFIX}`);
}

/** The whole file when regular and within the bound (links refused); a string saying why not; undefined when absent. */
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

/** The envelope on a file's first line, when this store wrote it (for `key`, when given). */
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

/** An entry file checked whole (envelope, body size and digest), or why not. */
function decode(file: Buffer, key: string | undefined): { key: string; entry: StoredEntry } | string {
  const newline = file.indexOf(0x0a);
  if (newline < 0) return 'it has no envelope line';
  const envelope = parseEnvelope(file.toString('utf8', 0, newline), key);
  if (typeof envelope === 'string') return envelope;
  const body = file.subarray(newline + 1);
  if (body.length !== envelope.size) return `its body has ${body.length} bytes, not ${envelope.size}`;
  if (sha256(body) !== envelope.sha256) return 'its body fails the integrity check';
  return { key: envelope.key, entry: { meta: envelope.meta, body } };
}

/** The entry of `key`; file-system errors other than absence throw. */
export function readEntry(dir: string, key: string): EntryRead {
  const file = readRegular(entryPath(dir, key));
  if (file === undefined) return { status: 'missing' };
  const decoded = typeof file === 'string' ? file : decode(file, key);
  return typeof decoded === 'string' ? { status: 'corrupt', reason: decoded } : { status: 'found', entry: decoded.entry };
}

function entryBytes(dir: string, key: string, meta: Record<string, unknown>, body: Buffer): { path: string; bytes: Buffer } {
  const envelope: Envelope = { v: FORMAT, key, size: body.length, sha256: sha256(body), meta };
  return { path: entryPath(dir, key), bytes: Buffer.concat([Buffer.from(`${JSON.stringify(envelope)}\n`), body]) };
}

/** A temp file unique to this write. */
const tempBeside = (path: string): string => `${path}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;

/** Writes `key`'s entry (temp file, then rename) off the event loop. */
export async function writeEntry(dir: string, key: string, meta: Record<string, unknown>, body: Buffer): Promise<void> {
  const { path, bytes } = entryBytes(dir, key, meta, body);
  const temp = tempBeside(path);
  try {
    await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Replaces `path` with `data` (a private temp file, fsynced first when `durable`, renamed over it). */
export function replaceFileSync(path: string, data: string | Buffer, durable = false): void {
  const temp = tempBeside(path);
  try {
    writeFileSync(temp, data, { flag: 'wx', mode: 0o600, flush: durable });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** writeEntry(), synchronously. */
export function writeEntrySync(dir: string, key: string, meta: Record<string, unknown>, body: Buffer): void {
  const { path, bytes } = entryBytes(dir, key, meta, body);
  replaceFileSync(path, bytes);
}

export function removeEntry(dir: string, key: string): void {
  rmSync(entryPath(dir, key), { force: true });
}

/** The store's entry file names; none when there is no store. */
export function entryNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => ENTRY_NAME.test(name));
  } catch {
    return [];
  }
}

/** An entry file by name, with the key it was written for; undefined when it is not one. */
export function readEntryFile(dir: string, name: string): ({ key: string } & StoredEntry) | undefined {
  const file = readRegular(join(dir, name));
  if (file === undefined || typeof file === 'string') return undefined;
  const decoded = decode(file, undefined);
  // A file renamed to another key's name is not that key's entry.
  if (typeof decoded === 'string' || `${sha256(decoded.key)}${ENTRY_SUFFIX}` !== name) return undefined;
  return { key: decoded.key, ...decoded.entry };
}

/** What a response-cache entry keeps to judge its freshness. */
export interface Freshness {
  /** The answer's http-cache-semantics policy. */
  policy: CachePolicy.CachePolicyObject;
  /** The headers a 304 updates. */
  headers: Record<string, string>;
  /** When it arrived or was last confirmed. */
  storedAt: number;
  /** Until when it is fresh; null when the service said nothing (the TTL applies). */
  freshUntil: number | null;
  /** Its Content-Language, so a hit can say it too. */
  language?: string;
}

/** Fresh: its lifetime (or the TTL) not yet over; one stored "in the future" is stale. */
export function isFresh(stored: Freshness, now: number, ttlMs: number): boolean {
  return now >= stored.storedAt && now < (stored.freshUntil ?? stored.storedAt + ttlMs);
}

/** Stored freshness, or undefined for anything else (then the entry is dropped). */
export function parseFreshness(meta: Record<string, unknown>): Freshness | undefined {
  const { policy, headers, storedAt, freshUntil, language } = meta;
  if (typeof policy !== 'object' || policy === null || (policy as { v?: unknown }).v !== 1) return undefined;
  if (typeof headers !== 'object' || headers === null || !Object.values(headers).every((v) => typeof v === 'string')) return undefined;
  if (typeof storedAt !== 'number' || !Number.isFinite(storedAt)) return undefined;
  if (freshUntil !== null && (typeof freshUntil !== 'number' || !Number.isFinite(freshUntil))) return undefined;
  const lang = typeof language === 'string' ? languageList(language) : undefined;
  return {
    policy: policy as CachePolicy.CachePolicyObject,
    headers: headers as Record<string, string>,
    storedAt,
    freshUntil,
    ...(lang !== undefined ? { language: lang } : {}),
  };
}

/** A Content-Language worth keeping: comma-separated language tags, bounded (it reaches the terminal). */
export function languageList(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text !== undefined && text.length <= 100 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*(\s*,\s*[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)*$/.test(text)
    ? text
    : undefined;
}
