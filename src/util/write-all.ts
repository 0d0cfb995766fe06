/**
 * Writes that check what was written: short writes loop until all are in, and a failed write or
 * fsync throws WriteFailedError naming the file (exit 6). `fsCalls` lets tests inject a full disk.
 */
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync, writev } from 'node:fs';
import { dirname } from 'node:path';
import { WriteFailedError } from '../errors.js';

export const fsCalls = { writeSync, fsyncSync, writev };

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The reason in an error, as people read it: `no space left on device (ENOSPC)`. */
export function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string') {
    const text = (e.message ?? '').replace(/^[A-Z]+: /, '').replace(/, \w+( .*)?$/, '');
    return `${text || 'failed'} (${e.code})`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The error for a failed write of `path`; our own errors pass through. */
export function writeFailed(path: string, err: unknown): WriteFailedError {
  if (err instanceof WriteFailedError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const hint =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'Free some space and run the command again; the previous file was kept.'
      : 'Check the path, its permissions and the disk, then run the command again; the previous file was kept.';
  return new WriteFailedError(path, reasonOf(err), { cause: err, hint });
}

/** Writes all of `data` at the file's current position (or at `position`), looping over short writes. */
export function writeAllSync(fd: number, data: string | Buffer, path: string, position?: number): void {
  let bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let at = position;
  try {
    while (bytes.length > 0) {
      const n = fsCalls.writeSync(fd, bytes, 0, bytes.length, at ?? null);
      if (n <= 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      bytes = bytes.subarray(n);
      if (at !== undefined) at += n;
    }
  } catch (err) {
    throw writeFailed(path, err);
  }
}

export function fsyncOrThrow(fd: number, path: string): void {
  try {
    fsCalls.fsyncSync(fd);
  } catch (err) {
    throw writeFailed(path, err);
  }
}

/** Makes a rename durable: the directory's entry is synced too (skipped where directories cannot be opened). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsCalls.fsyncSync(fd);
  } catch {
    // Some platforms and file systems refuse to sync a directory; the file itself is synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Replaces `path` atomically: a new temporary file (never through a link) renamed over it; on failure `path` is as before. */
export function replaceFileSync(path: string, chunks: Iterable<string | Buffer>, mode = 0o666): void {
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, mode);
    for (const chunk of chunks) writeAllSync(fd, chunk, path);
    fsyncOrThrow(fd, path);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw writeFailed(path, err);
  }
  fsyncDir(dirname(path));
}
