/**
 * Where pictures fetched only to be looked at are kept (`show --images`, `image --view`
 * without --dir): a folder of their own under the user cache directory (`pictures/`, as
 * `<id>/<name>.png`), never the working directory. `cache info` counts it and `cache clear`
 * removes it; the next view downloads again what it needs. Like the response cache's store it
 * is the tool's own: a symlink planted in its place is refused, never followed.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from '../../context.js';
import { cacheRoot, checkCacheRoot, checkOwnDir, makePrivateDir } from '../../cache/store-files.js';

/** The pictures folder for this environment's cache directory. */
export function picturesDir(env: Env): string {
  return join(cacheRoot(env), 'pictures');
}

/** The pictures folder, checked (CacheDirError for a planted symlink or a file in its place) and made private. */
export function readyPicturesDir(env: Env): string {
  const dir = picturesDir(env);
  checkCacheRoot(cacheRoot(env));
  checkOwnDir(dir);
  makePrivateDir(dir);
  return dir;
}

/** How many files the pictures folder holds and their bytes; nothing when it is absent. */
export async function picturesUsage(env: Env): Promise<{ path: string; files: number; bytes: number }> {
  const dir = picturesDir(env);
  let files = 0;
  let bytes = 0;
  checkOwnDir(dir);
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    files++;
    bytes += await stat(join(entry.parentPath, entry.name)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return { path: dir, files, bytes };
}

/** Removes the pictures folder (a planted symlink is refused by checkOwnDir, not followed); how many files it held. */
export async function clearPictures(env: Env): Promise<number> {
  const { path, files } = await picturesUsage(env);
  await rm(path, { recursive: true, force: true });
  return files;
}
