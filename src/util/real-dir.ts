/**
 * Folders a command writes into, made and checked one level at a time: a link planted below the
 * root is refused (WriteFailedError, exit 6) before anything is written through it.
 */
import { type Stats, lstatSync, mkdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { WriteFailedError } from '../errors.js';
import { writeFailed } from './write-all.js';

export function refuseLink(path: string, what = 'a symbolic link or not a plain file'): WriteFailedError {
  return new WriteFailedError(path, `it is ${what}, which could send the write somewhere else, so it was refused`, {
    hint: 'Remove it (it was not made by this program) and run the command again.',
  });
}

/** The components of `target` below `root` (target must lie inside root). */
function below(root: string, target: string): string[] {
  const rel = relative(resolve(root), resolve(target));
  return rel === '' ? [] : rel.split(sep);
}

/** Makes `root/components…` (root with mkdir -p), refusing a link or a non-directory at any level below root. Returns the path. */
export function ensureRealDir(root: string, ...components: string[]): string {
  let at = resolve(root);
  try {
    mkdirSync(at, { recursive: true });
  } catch (err) {
    throw writeFailed(at, err);
  }
  for (const part of below(at, join(at, ...components))) {
    at = join(at, part);
    let info = lstatOrUndefined(at);
    if (info === undefined) {
      try {
        mkdirSync(at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailed(at, err);
      }
      info = lstatOrUndefined(at);
    }
    if (info?.isSymbolicLink()) throw refuseLink(at, 'a symbolic link');
    if (info && !info.isDirectory()) throw refuseLink(at, 'not a directory');
  }
  return at;
}

/** What is at `path` (a link not followed), or undefined when nothing is or it cannot be seen. */
export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** ensureRealDir for `target` inside `root`, for async callers: the same synchronous checks, written once. */
export async function ensureRealDirAsync(root: string, target: string): Promise<string> {
  return ensureRealDir(root, ...below(root, target));
}

/** Throws when something at `path` is a symbolic link (missing is fine: it will be made new). */
export function refuseLinkAt(path: string): void {
  if (lstatOrUndefined(path)?.isSymbolicLink()) throw refuseLink(path, 'a symbolic link');
}
