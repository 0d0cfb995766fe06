/**
 * The response cache's directory: checked once before it is used (cache-dir.ts: no planted
 * symlink, no file in its place) and made private (0700) before the first write (the files in it
 * are made 0600 by the writes themselves: entry-file.ts).
 */
import { dirname } from 'node:path';
import type { CacheDirError } from '../errors.js';
import { checkCacheRoot, checkOwnDir, makePrivateDir } from './cache-dir.js';

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

  /** The store's directory made 0700 before the first write; `again`: made anew after another process removed it (`cache clear`). */
  makePrivate(again = false): void {
    if (this.madePrivate && !again) return;
    makePrivateDir(this.path);
    this.madePrivate = true;
  }
}
