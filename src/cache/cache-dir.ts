/**
 * The cache directory, checked before it is used and kept private. The user cache root
 * (`~/.cache/exercises`) may be a symlink the user made; the store under it (`http/`) is the
 * tool's own and is never followed through a symlink: one planted there would send premium
 * answers into a directory of the planter's choosing. A loop, or a file where a directory
 * should be, is told plainly (exit 6), never a crash; commands other than `cache` take such a
 * store as unusable (a miss) unless a symlink was planted in it, which is always refused.
 *
 * Directories the tool makes here are 0700 and files 0600 whatever the umask: the store
 * holds answers a premium key paid for, the completion index what the user looked at.
 * Synchronous (node:fs is loaded at start-up anyway; this runs once per process).
 */
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CacheDirError } from '../errors.js';

const HINT = 'Remove it (or move it aside) so the tool can make its own directory there; `exercises cache info` shows where the cache is.';

/** The lstat of `path`, or undefined when nothing is there. Other errors are CacheDirError. */
function lstatOrNone(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR')
      throw new CacheDirError(`The cache directory ${path} cannot be used: a file stands where a directory of its path should be.`, { hint: HINT, cause: err });
    throw new CacheDirError(`The cache directory ${path} cannot be used: ${(err as Error).message}.`, { hint: HINT, cause: err });
  }
}

/** Throws CacheDirError unless `root` is absent, a directory, or a symlink (the user's) to one. */
export function checkCacheRoot(root: string): void {
  const found = lstatOrNone(root);
  if (!found || found.isDirectory()) return;
  if (found.isSymbolicLink()) {
    try {
      if (statSync(root).isDirectory()) return;
    } catch (err) {
      const loop = (err as NodeJS.ErrnoException).code === 'ELOOP';
      throw new CacheDirError(`The cache directory ${root} is a symlink ${loop ? 'that loops' : 'to nothing'}.`, { hint: HINT, cause: err });
    }
  }
  throw new CacheDirError(`The cache directory ${root} is not a directory.`, { hint: HINT });
}

/** Throws CacheDirError unless `dir` (the tool's own, e.g. `http/`) is absent or a real directory: a symlink is refused, not followed. */
export function checkOwnDir(dir: string): void {
  const found = lstatOrNone(dir);
  if (!found || found.isDirectory()) return;
  if (found.isSymbolicLink()) {
    throw new CacheDirError(`Refusing to use ${dir}: it is a symlink, and the tool's cache directory is never followed elsewhere.`, {
      hint: HINT,
      details: { planted: true },
    });
  }
  throw new CacheDirError(`The cache directory ${dir} is not a directory.`, { hint: HINT });
}

/** Makes `dir` (and its missing parents) 0700; one of ours found open to others is closed. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if ((stat.mode & 0o077) !== 0 && (process.getuid === undefined || stat.uid === process.getuid())) chmodSync(dir, 0o700);
}

/**
 * The response cache's directory as a store uses it: checked once before it is used (no
 * planted symlink, no file in its place) and made private (0700) before the first write (the
 * files in it are made 0600 by the writes themselves: entry-file.ts).
 */
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
