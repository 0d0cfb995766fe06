/**
 * The per-file lock that keeps two processes (or two downloads in one process) from writing the
 * same `.part`: the tool's one lock (util/file-lock.ts: a `<file>.lock` directory, kept fresh
 * while its holder lives, taken over once stale by age, a dead holder or a future date). A
 * download waits for a held lock, bounded, then gives up on that file with a clear message.
 */
import { UsageError } from '../../errors.js';
import { type HeldLock, type LockOptions, LockWaitError, lockFile as takeLock, lockPathOf } from '../../util/file-lock.js';

export { type HeldLock, lockPathOf };

/** Takes the lock of `path`, waiting up to `waitMs` for another holder; `waited` says whether it had to. */
export async function lockFile(path: string, options: LockOptions & { what: string }): Promise<{ lock: HeldLock; waited: boolean }> {
  try {
    return await takeLock(path, options);
  } catch (err) {
    if (!(err instanceof LockWaitError)) throw err;
    throw new UsageError(
      `Another process is writing the ${options.what} into the same file (${lockPathOf(path)} is held); gave up after ${Math.round(options.waitMs / 1000)} s.`,
      {
        hint: 'Let the other download finish, then run the command again: complete files are skipped.',
        details: { lock: lockPathOf(path) },
      },
    );
  }
}
