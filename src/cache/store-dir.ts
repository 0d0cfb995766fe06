/**
 * The response cache's directory: checked once before it is used (cache-dir.ts: no planted
 * symlink, no file in its place), made private (0700) before the first write, and each file a
 * write made kept 0600 whatever the umask.
 */
import { dirname } from 'node:path';
import type { CacheDirError } from '../errors.js';
import { checkCacheRoot, checkOwnDir, keepFilesPrivate, makePrivateDir } from './cache-dir.js';
import { bucketPath, contentPath, pickDigest } from './store-read.js';

export class StoreDir {
  /** The directory cannot hold a store (a file in its place, a dangling root): every read a miss, every write skipped. */
  unusable = false;
  /** The directory was checked (cache-dir.ts). */
  private checked = false;
  private madePrivate = false;

  constructor(
    private readonly path: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Checks the store's directory once (cache-dir.ts). A symlink planted at it is always
   * CacheDirError (exit 6); another problem (a file in its place) is one too for `cache
   * info|clear` (`strict`), and for any other command makes the store unusable: misses only.
   */
  check(strict = false): void {
    if (this.checked && !strict) return;
    try {
      checkCacheRoot(dirname(this.path));
      checkOwnDir(this.path);
    } catch (err) {
      if (strict || (err as CacheDirError).details?.planted === true) throw err;
      this.log(`cache: ${(err as Error).message}`);
      this.unusable = true;
    }
    this.checked = true;
  }

  /** The store's directory made 0700 before the first write (cacache makes the rest inside it). */
  makePrivate(): void {
    if (this.madePrivate) return;
    makePrivateDir(this.path);
    this.madePrivate = true;
  }

  /** The files a write made, 0600 whatever the umask (cacache leaves them to it). */
  keepPrivate(key: string, integrity?: string): void {
    const digest = integrity === undefined ? undefined : pickDigest(integrity);
    keepFilesPrivate([bucketPath(this.path, key), ...(digest ? [contentPath(this.path, digest)] : [])]);
  }
}
