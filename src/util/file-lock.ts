/**
 * The one inter-process lock, for the request ledger and for a media file being written: a
 * `<file>.lock` directory made with mkdir (atomic), holding the holder's pid, host and token, its
 * mtime kept fresh while held. Stale (and taken over) when not refreshed in `staleMs`, dated in the
 * future, or owned by a dead process of this host. A holder learns it lost the lock from check()/lost().
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, rmdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { lstatOrUndefined } from './real-dir.js';

/** A lock dated more than this ahead of our clock is stale (allows for coarse file-system clocks). */
const FUTURE_SKEW_MS = 2_000;
/** How often a holder refreshes its lock's mtime: well within any stale age in use (10 s). */
const REFRESH_MS = 2_000;
const MAX_POLL_MS = 250;

interface Owner {
  pid: number;
  host: string;
  token: string;
}

export interface LockOptions {
  waitMs: number;
  staleMs: number;
  signal?: AbortSignal;
  /** Called (and awaited) once, when the lock is found held and the wait begins. */
  onWait?: () => void | Promise<void>;
}

export interface HeldLock {
  /** Throws LockWaitError when the lock was taken over since it was had. */
  check(): Promise<void>;
  /** Set when a refresh found the lock lost (taken over, or removed) while held. */
  lost(): Error | undefined;
  /** Removes the lock when it is still ours; harmless when already released or lost. */
  release(): Promise<void>;
}

/** The lock could not be had in time, or was lost while held. Other failures (a read-only directory) are the file system's own errors. */
export class LockWaitError extends Error {}

export function lockPathOf(file: string): string {
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

function readOwner(dir: string): Owner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(`${dir}/owner`, 'utf8')) as Partial<Owner>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string') return parsed as Owner;
  } catch {
    // no owner yet (just made), or not ours: judged by its age alone
  }
  return undefined;
}

/** Why the lock at `dir` is stale, or undefined while it is held by someone alive. */
function staleReason(dir: string, staleMs: number): string | undefined {
  const mtime = lstatOrUndefined(dir)?.mtimeMs;
  if (mtime === undefined) return undefined; // gone: the next mkdir will tell
  const now = Date.now();
  if (mtime > now + FUTURE_SKEW_MS) return 'it is dated in the future';
  if (now - mtime > staleMs) return `it was not refreshed for ${Math.round((now - mtime) / 1000)} s`;
  const owner = readOwner(dir);
  if (owner && owner.host === hostname() && owner.pid !== process.pid && !pidAlive(owner.pid)) return `its holder (pid ${owner.pid}) is gone`;
  return undefined;
}

/** Makes the lock directory with our owner file; false when someone holds it. Other errors throw. */
function tryMake(dir: string, token: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeFileSync(`${dir}/owner`, JSON.stringify({ pid: process.pid, host: hostname(), token }), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // A full disk: a lock without its owner would stand until it is stale.
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return true;
}

/** Moves a stale lock aside and removes it: of two processes taking over one stale lock, one rename wins. */
function takeOver(dir: string, token: string): void {
  const aside = `${dir}.stale-${token}`;
  try {
    renameSync(dir, aside);
  } catch {
    return; // another process moved it first
  }
  rmSync(aside, { recursive: true, force: true });
}

/** Takes the lock of `file` (whose directory must exist), waiting at most `waitMs`; `waited` says whether it had to wait. */
export async function lockFile(file: string, options: LockOptions): Promise<{ lock: HeldLock; waited: boolean }> {
  const dir = lockPathOf(file);
  const giveUpAt = Date.now() + options.waitMs;
  const token = randomBytes(12).toString('hex');
  let waited = false;
  for (let round = 0; !tryMake(dir, token); round++) {
    const stale = staleReason(dir, options.staleMs);
    if (stale) {
      takeOver(dir, token);
      continue;
    }
    if (Date.now() >= giveUpAt) {
      const owner = readOwner(dir);
      throw new LockWaitError(`the lock ${dir} stayed held${owner ? ` by pid ${owner.pid}` : ''} for ${Math.round(options.waitMs / 1000)} s`);
    }
    if (!waited) {
      waited = true;
      await options.onWait?.();
    }
    const pauseMs = Math.min(MAX_POLL_MS, 5 * 1.5 ** Math.min(round, 10)) * (0.5 + Math.random());
    await delay(pauseMs, undefined, { signal: options.signal }).catch(() => options.signal?.throwIfAborted());
  }
  return { lock: held(dir, token), waited };
}

/** The lock at `dir`, just made with `token`: refreshed until released or found lost. */
function held(dir: string, token: string): HeldLock {
  let lostWith: Error | undefined;
  const ours = (): boolean => readOwner(dir)?.token === token;
  const refresh = setInterval(() => {
    const now = new Date();
    try {
      if (!ours()) throw new Error('another process took it over');
      utimesSync(dir, now, now);
    } catch (err) {
      lostWith ??= new LockWaitError(`the lock ${dir} was lost while held: ${(err as Error).message}`);
      clearInterval(refresh);
    }
  }, REFRESH_MS);
  refresh.unref();
  return {
    async check() {
      if (!ours()) throw new LockWaitError(`the lock ${dir} was taken over by another process while this one held it`);
    },
    lost: () => lostWith,
    async release() {
      clearInterval(refresh);
      if (!ours()) return;
      // Two calls where a recursive rm makes six.
      try {
        unlinkSync(`${dir}/owner`);
        rmdirSync(dir);
      } catch {
        try {
          rmSync(dir, { recursive: true, force: true });
        } catch {
          // harmless: the next taker judges what is left by its age and owner
        }
      }
    },
  };
}
