/**
 * The per-file lock that keeps two processes (or two downloads in one process) from writing the
 * same `.part`: proper-lockfile's `<file>.lock` directory (made atomically with mkdir), kept
 * fresh while its holder lives and taken over once it has not been refreshed for
 * MEDIA_LOCK_STALE_MS (its holder died). A download waits for a held lock, bounded, then gives up
 * on that file with a clear message.
 */
import { UsageError } from '../../errors.js';
import { sleep } from '../../http/retry-policy.js';
import { loadProperLockfile } from '../../vendor/proper-lockfile.js';

export interface HeldLock {
  /** Removes the lock; harmless when already released or lost. */
  release(): Promise<void>;
  /** Set when the lock was lost while held (not refreshed in time and taken over, or removed). */
  lost(): Error | undefined;
}

export interface LockOptions {
  /** Longest wait for a lock another holder keeps fresh. */
  waitMs: number;
  /** Age after which an unrefreshed lock is taken over. */
  staleMs: number;
  signal?: AbortSignal;
  /** Called (and awaited) once, when the lock is found held and the wait begins. */
  onWait?: () => void | Promise<void>;
  /** For the message when the wait runs out. */
  what: string;
}

/** How often a held lock is tried again while waiting. */
const POLL_MS = 200;

export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

/** Takes the lock of `path`, waiting up to `waitMs` for another holder; `waited` says whether it had to. */
export async function lockFile(path: string, options: LockOptions): Promise<{ lock: HeldLock; waited: boolean }> {
  const { lock } = await loadProperLockfile();
  const deadline = Date.now() + options.waitMs;
  let waited = false;
  for (;;) {
    let lostWith: Error | undefined;
    try {
      const release = await lock(path, {
        realpath: false, // the file itself need not exist yet
        stale: options.staleMs,
        retries: 0,
        // Never thrown (that would crash the process): the sink checks lost() before it publishes.
        onCompromised: (err) => {
          lostWith = err;
        },
      });
      return {
        waited,
        lock: {
          release: () => release().catch(() => {}),
          lost: () => lostWith,
        },
      };
    } catch (err) {
      if ((err as { code?: string }).code !== 'ELOCKED') throw err;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new UsageError(
          `Another process is writing the ${options.what} into the same file (${lockPathOf(path)} is held); gave up after ${Math.round(options.waitMs / 1000)} s.`,
          {
            hint: 'Let the other download finish, then run the command again: complete files are skipped.',
            details: { lock: lockPathOf(path) },
          },
        );
      }
      if (!waited) {
        waited = true;
        await options.onWait?.();
      }
      await sleep(Math.min(POLL_MS, left), options.signal);
    }
  }
}
