/** The files a download writes are opened without following a planted link, and one reused must be a plain file with one link. */
import { constants as fsConstants } from 'node:fs';
import { type CliError, UsageError } from '../../errors.js';

/** O_NOFOLLOW (ELOOP on a symbolic link); where missing, the lstat and single-link checks still refuse one. */
export const O_NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;
const { O_RDWR, O_WRONLY, O_CREAT, O_EXCL } = fsConstants;

/** Flags for a file that must be new: created here, never through a link. */
export const CREATE_NEW_FLAGS = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW;
/** Flags for reopening a file this program made, never through a symbolic link. */
export const REOPEN_FLAGS = O_RDWR | O_NOFOLLOW;
/** The sidecar, written once through a new name. */
export const WRITE_NEW_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

export function linkRefused(path: string): CliError {
  return new UsageError(`Refusing to write through ${path}: it is a symbolic or hard link, which could lead outside the output directory.`, {
    hint: 'Remove it (or choose another --dir) and run the command again.',
    details: { path },
  });
}

/** Throws unless the stat of an open file shows a plain file with exactly one name. */
export function assertSingleLink(info: { isFile(): boolean; nlink: number }, path: string): void {
  if (!info.isFile() || info.nlink !== 1) throw linkRefused(path);
}
