/** Clearing and measuring the store, as `cache clear` and `cache info` do, safe while other processes use it. */
import type { Dirent } from 'node:fs';
import { lstat, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { entryNames } from './store-files.js';

export interface CacheInfo {
  path: string;
  /** Keys stored: one per answer, one or two per full record. */
  entries: number;
  /** Bytes on disk under path. */
  bytes: number;
  /** When the oldest entry was written; null when empty. */
  oldest: number | null;
}

export async function measureStore(path: string): Promise<CacheInfo> {
  const names = entryNames(path);
  return { path, entries: names.length, bytes: await bytesUnder(path), oldest: await oldestEntry(path, names) };
}

/**
 * Removes the store whole: first renamed aside in one step, so concurrent writers start a fresh store,
 * then removed, retrying what a late writer added. Resolves to the files it could not remove.
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

async function filesUnder(dir: string): Promise<Dirent[]> {
  return (await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])).filter((e) => !e.isDirectory());
}

/** When the oldest entry file was written (its mtime), or null for none. */
async function oldestEntry(dir: string, names: readonly string[]): Promise<number | null> {
  let oldest: number | null = null;
  for (const name of names) {
    const stat = await lstat(join(dir, name)).catch(() => undefined);
    if (stat && (oldest === null || stat.mtimeMs < oldest)) oldest = stat.mtimeMs;
  }
  return oldest;
}

async function bytesUnder(dir: string): Promise<number> {
  const sizes = (await filesUnder(dir)).map(async (e) => (await lstat(join(e.parentPath, e.name)).catch(() => undefined))?.size ?? 0);
  return (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
}
