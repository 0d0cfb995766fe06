/**
 * Clearing the store and measuring it, as `cache clear` and `cache info` do, safe while other
 * processes read and write it.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { entryNames } from './store-files.js';

export interface CacheInfo {
  path: string;
  /** Keys stored: one per cached answer, one or two per known full record (by id, by name). */
  entries: number;
  /** Bytes on disk under path (entries, temp files, anything an older release left there). */
  bytes: number;
  /** When the oldest entry was written, ms since the epoch; null when empty. */
  oldest: number | null;
}

/** The store at `path` measured: its entries, its bytes on disk, its oldest entry's time. */
export async function measureStore(path: string): Promise<CacheInfo> {
  const names = entryNames(path);
  return { path, entries: names.length, bytes: await bytesUnder(path), oldest: await oldestEntry(path, names) };
}

/**
 * Removes the store at `path` whole. The directory is first renamed aside, in one step, so
 * processes writing at the same time start a fresh store rather than write into one being
 * removed; the removal then retries what a late writer added (ENOTEMPTY), and also removes
 * what a clear killed halfway left. Resolves to the files it could not remove (0 as a rule).
 */
export async function clearStore(path: string): Promise<number> {
  const parent = dirname(path);
  const prefix = `${basename(path)}.clearing-`;
  const aside = `${path}.clearing-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  await rename(path, aside).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  const leftovers = (await readdir(parent).catch(() => [] as string[])).filter((name) => name.startsWith(prefix)).map((name) => join(parent, name));
  let left = 0;
  for (const dir of leftovers) {
    try {
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
    } catch {
      left += (await filesUnder(dir)).length;
    }
  }
  return left;
}

/** The files under `dir` (none when it does not exist); links are not followed. */
async function filesUnder(dir: string): Promise<Dirent[]> {
  return (await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])).filter((e) => !e.isDirectory());
}

/** When the oldest of the entry files `names` in `dir` was written (its mtime: each entry is written once, by rename), or null for none. */
async function oldestEntry(dir: string, names: readonly string[]): Promise<number | null> {
  let oldest: number | null = null;
  for (const name of names) {
    const stat = await lstat(join(dir, name)).catch(() => undefined);
    if (stat && (oldest === null || stat.mtimeMs < oldest)) oldest = stat.mtimeMs;
  }
  return oldest;
}

/** Bytes of every file under `dir` (0 when it does not exist). */
async function bytesUnder(dir: string): Promise<number> {
  const sizes = (await filesUnder(dir)).map(async (e) => (await lstat(join(e.parentPath, e.name)).catch(() => undefined))?.size ?? 0);
  return (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
}
