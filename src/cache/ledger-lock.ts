/**
 * The request ledger's inter-process lock: a `<ledger>.lock` directory made with mkdir (atomic;
 * the same name proper-lockfile uses, so older releases still exclude this one), holding an
 * `owner` file with the holder's pid, host and a random token. The holder keeps the
 * directory's mtime fresh while it works. A lock is stale, and taken over, when
 *
 * - its mtime is older than LEDGER_LOCK_STALE_MS (the holder died or hangs),
 * - its mtime lies in the future (a planted or clock-skewed lock would otherwise be fresh for
 *   ever: proper-lockfile waited on one and then let the request out uncounted),
 * - its owner is a process of this host that no longer exists (a `kill -9`'d holder is taken
 *   over at once, not after the stale age).
 *
 * The wait is bounded (LOCK_WAIT_MS): past it the caller gets LockWaitError, and with a
 * budget the command stops rather than sending a request it could not count. A holder checks
 * it still holds the lock (its token is in place) just before it replaces the ledger, so a
 * takeover racing a slow holder fails that holder instead of letting two writes interleave.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { LEDGER_LOCK_STALE_MS } from '../defaults.js';

/** Longest wait for a lock someone keeps fresh: past it the update fails (exit 5 with a budget). */
export const LOCK_WAIT_MS = 15_000;
/** A lock dated more than this ahead of our clock is stale (allows for coarse file-system clocks). */
const FUTURE_SKEW_MS = 2_000;
/** How often a holder refreshes its lock's mtime. */
const REFRESH_MS = 2_000;

interface Owner {
  pid: number;
  host: string;
  token: string;
}

export interface LockOptions {
  waitMs?: number;
  staleMs?: number;
}

/** The lock could not be had in time, or could not be made at all (a read-only directory). */
export class LockWaitError extends Error {}

export function lockDirOf(file: string): string {
  return `${file}.lock`;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(dir: string): Promise<Owner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(`${dir}/owner`, 'utf8')) as Partial<Owner>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string') return parsed as Owner;
  } catch {
    // no owner yet (just made), or not ours: judged by its age alone
  }
  return undefined;
}

/** Why the lock at `dir` is stale, or undefined while it is held by someone alive. */
async function staleReason(dir: string, staleMs: number): Promise<string | undefined> {
  let mtime: number;
  try {
    mtime = (await lstat(dir)).mtimeMs;
  } catch {
    return undefined; // gone: the next mkdir will tell
  }
  const now = Date.now();
  if (mtime > now + FUTURE_SKEW_MS) return 'it is dated in the future';
  if (now - mtime > staleMs) return `it was not refreshed for ${Math.round((now - mtime) / 1000)} s`;
  const owner = await readOwner(dir);
  if (owner && owner.host === hostname() && owner.pid !== process.pid && !pidAlive(owner.pid)) return `its holder (pid ${owner.pid}) is gone`;
  return undefined;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface HeldLedgerLock {
  /** Throws LockWaitError when the lock was taken over since it was had. */
  check(): Promise<void>;
  release(): Promise<void>;
}

/** Takes the lock of `file`, waiting at most `waitMs`; LockWaitError past it or when the lock cannot be made. */
export async function lockLedger(file: string, options: LockOptions = {}): Promise<HeldLedgerLock> {
  const dir = lockDirOf(file);
  const staleMs = options.staleMs ?? LEDGER_LOCK_STALE_MS;
  const giveUpAt = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  const token = randomBytes(12).toString('hex');
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new LockWaitError(`cannot make the directory of ${file}: ${(err as Error).message}`);
  }
  for (let round = 0; ; round++) {
    try {
      await mkdir(dir, { mode: 0o700 });
      await writeFile(`${dir}/owner`, JSON.stringify({ pid: process.pid, host: hostname(), token }), { mode: 0o600, flag: 'wx' });
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new LockWaitError(`cannot make the lock ${dir}: ${(err as Error).message}`);
    }
    const stale = await staleReason(dir, staleMs);
    if (stale) {
      // Moved aside first: of two processes taking over one stale lock, one rename wins.
      const aside = `${dir}.stale-${token}`;
      if (
        await rename(dir, aside).then(
          () => true,
          () => false,
        )
      )
        await rm(aside, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= giveUpAt) {
      const owner = await readOwner(dir);
      throw new LockWaitError(`the lock ${dir} stayed held${owner ? ` by pid ${owner.pid}` : ''} for ${Math.round((options.waitMs ?? LOCK_WAIT_MS) / 1000)} s`);
    }
    await pause(Math.min(250, 5 * 1.5 ** Math.min(round, 10)) * (0.5 + Math.random()));
  }
  const refresh = setInterval(() => {
    const now = new Date();
    utimes(dir, now, now).catch(() => {});
  }, REFRESH_MS);
  refresh.unref();
  const ours = async (): Promise<boolean> => (await readOwner(dir))?.token === token;
  return {
    async check() {
      if (!(await ours())) throw new LockWaitError(`the lock ${dir} was taken over by another process while this one held it`);
    },
    async release() {
      clearInterval(refresh);
      if (await ours()) await rm(dir, { recursive: true, force: true }).catch(() => {});
    },
  };
}
