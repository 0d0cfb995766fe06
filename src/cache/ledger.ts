/**
 * The request ledger: every request sent to the service, counted per origin, key (by hash)
 * and calendar month (UTC), in one small JSON file (ledger-file.ts). Each change is a
 * read-modify-write under an inter-process lock (util/file-lock.ts: bounded wait, stale locks
 * taken over by age, by a dead holder's pid, or when dated in the future), and the file is
 * replaced by rename, so a reader without the lock sees the old or the new file, never half
 * of one. `reserve` checks the budget and counts the request in the same locked step, before
 * the request is sent: two processes can never both take the last request.
 *
 * `strict` updates (a budget is in force) never guess: a lock that cannot be had, a file that
 * cannot be read or written, or a corrupt file with no good copy throws BudgetUncheckedError
 * naming the file. Without a budget a corrupt file is set aside and the count starts again.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { LEDGER_LOCK_STALE_MS } from '../defaults.js';
import { BudgetExceededError, BudgetUncheckedError } from '../errors.js';
import { LockWaitError, lockFile } from '../util/file-lock.js';
import { type HeaderBag, rateLimitHeaders } from './headers.js';
import { normalOrigin } from './keys.js';
import { type LedgerData, type LedgerUsage, type RateLimitSeen, connectionKey, currentMonth, emptyLedger, prune, usageOf } from './ledger-data.js';
import { readLedgerFile, setAside, writeLedgerFile } from './ledger-file.js';

export type { LedgerUsage, RateLimitSeen } from './ledger-data.js';

/** Longest wait for the ledger's lock someone keeps fresh: past it the update fails (exit 5 with a budget). */
const LEDGER_LOCK_WAIT_MS = 15_000;

/**
 * The origin a connection is counted under. The --sandbox server listens on a new port each
 * run, so its requests are counted under one fixed name instead of one entry per port.
 */
export const SANDBOX_LEDGER_ORIGIN = 'http://sandbox.invalid';

export function ledgerOrigin(conn: { baseUrl: string; baseUrlSource?: string }): string {
  return conn.baseUrlSource === 'sandbox' ? SANDBOX_LEDGER_ORIGIN : new URL(conn.baseUrl).origin;
}

export interface LedgerOptions {
  /** Told when the file had to be recovered or set aside. */
  warn?: (message: string) => void;
  /** Applied to every rate-limit header value before it is kept (util/text.ts: a server may echo the key). */
  redact?: (text: string) => string;
  /** The lock's bounded wait, ms (LEDGER_LOCK_WAIT_MS by default). */
  lockWaitMs?: number;
}

export interface ReserveOptions {
  /** Requests allowed per month; null or undefined: no budget. */
  budget?: number | null;
  now?: number;
}

export class Ledger {
  readonly path: string;
  private readonly warn: (message: string) => void;
  private readonly redact: (text: string) => string;
  private readonly lockWaitMs: number | undefined;
  /** Rate-limit headers noted but not yet written, by connection. */
  private readonly pending = new Map<string, RateLimitSeen>();
  /** Updates of this process, one at a time (the file lock excludes other processes only). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(path: string, options: LedgerOptions = {}) {
    this.path = path;
    this.warn = options.warn ?? (() => {});
    this.redact = options.redact ?? ((text) => text);
    this.lockWaitMs = options.lockWaitMs;
  }

  /**
   * Counts one request to `origin` with the key hashed as `keyHash`, before it is sent. With
   * a budget, a request that would pass it is refused (BudgetExceededError, nothing counted),
   * and one that cannot be counted durably too (BudgetUncheckedError).
   * Resolves to the month's usage including this request.
   */
  async reserve(origin: string, keyHash: string, options: ReserveOptions = {}): Promise<LedgerUsage> {
    const now = options.now ?? Date.now();
    const month = currentMonth(now);
    const connection = connectionKey(origin, keyHash);
    const budget = options.budget ?? null;
    return this.update(now, budget !== null, (data) => {
      const requests = data.counts[month]?.[connection] ?? 0;
      if (budget !== null && requests >= budget) {
        throw new BudgetExceededError({ month, requests, budget, origin: normalOrigin(origin) });
      }
      (data.counts[month] ??= {})[connection] = requests + 1;
      return usageOf(data, connection, month, budget);
    });
  }

  /**
   * Counts `n` requests already sent, with no budget to check (see request-count.ts: without a
   * budget, requests are counted in memory and added here in batches, one lock per batch).
   */
  async add(origin: string, keyHash: string, n: number, options: { now?: number } = {}): Promise<void> {
    if (n <= 0 && this.pending.size === 0) return;
    const now = options.now ?? Date.now();
    const month = currentMonth(now);
    const connection = connectionKey(origin, keyHash);
    await this.update(now, false, (data) => {
      if (n > 0) (data.counts[month] ??= {})[connection] = (data.counts[month]?.[connection] ?? 0) + n;
      return undefined;
    });
  }

  /**
   * Sets this month's count of one connection back to 0 (`quota --reset-month`); a corrupt
   * ledger with no good copy is set aside and started afresh. Resolves to the count it had.
   */
  async resetMonth(origin: string, keyHash: string, options: { now?: number } = {}): Promise<number> {
    const now = options.now ?? Date.now();
    const month = currentMonth(now);
    const connection = connectionKey(origin, keyHash);
    return this.update(
      now,
      true,
      (data) => {
        const had = data.counts[month]?.[connection] ?? 0;
        if (data.counts[month]) delete data.counts[month][connection];
        return had;
      },
      { startAfresh: true },
    );
  }

  /**
   * Notes the rate-limit headers of a response (RateLimit-*, X-RateLimit-*), redacted, as the
   * last seen for this connection, in memory: they are written with the next reserve() or
   * flush(), so a response costs no extra lock. Returns whether the response had any.
   */
  noteRateLimit(origin: string, keyHash: string, headers: HeaderBag, options: { now?: number } = {}): boolean {
    const info = rateLimitHeaders(headers, this.redact);
    if (!info) return false;
    this.pending.set(connectionKey(origin, keyHash), { ...info, seenAt: options.now ?? Date.now() });
    return true;
  }

  /** Writes rate-limit headers noted since the last write (call it once at exit). */
  async flush(options: { now?: number } = {}): Promise<void> {
    if (this.pending.size === 0) return;
    await this.update(options.now ?? Date.now(), false, () => undefined);
  }

  /** noteRateLimit() and flush() at once. */
  async recordRateLimit(origin: string, keyHash: string, headers: HeaderBag, options: { now?: number } = {}): Promise<void> {
    if (this.noteRateLimit(origin, keyHash, headers, options)) await this.flush(options);
  }

  /**
   * The usage of a month (this one by default) without taking the lock: the file is only ever
   * replaced whole. A corrupt file is read from its good copy; with none, and a budget, it
   * throws BudgetUncheckedError (the count is unknown), else it reads as empty.
   */
  async usage(origin: string, keyHash: string, options: { month?: string; budget?: number | null; now?: number } = {}): Promise<LedgerUsage> {
    const month = options.month ?? currentMonth(options.now ?? Date.now());
    const strict = options.budget !== undefined && options.budget !== null;
    let data: LedgerData;
    try {
      const read = await readLedgerFile(this.path);
      if (read.status === 'corrupt' && strict) throw new BudgetUncheckedError(this.path, 'the ledger is corrupt and no good copy of it is left');
      data = read.status === 'corrupt' ? emptyLedger() : read.data;
    } catch (err) {
      if (err instanceof BudgetUncheckedError || !strict) throw err;
      throw new BudgetUncheckedError(this.path, `it cannot be read (${(err as Error).message})`);
    }
    for (const [connection, seen] of this.pending) data.rateLimits[connection] = seen;
    return usageOf(data, connectionKey(origin, keyHash), month, options.budget);
  }

  private update<T>(now: number, strict: boolean, change: (data: LedgerData) => T, options: { startAfresh?: boolean } = {}): Promise<T> {
    const run = this.queue.then(() => this.locked(now, strict, change, options));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Read, change and replace the file under the lock; `change` may throw to leave it as it was. */
  private async locked<T>(now: number, strict: boolean, change: (data: LedgerData) => T, options: { startAfresh?: boolean }): Promise<T> {
    const failed = (reason: string): Error => (strict ? new BudgetUncheckedError(this.path, reason) : new Error(`${reason} (${this.path})`));
    let lock;
    try {
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      ({ lock } = await lockFile(this.path, { waitMs: this.lockWaitMs ?? LEDGER_LOCK_WAIT_MS, staleMs: LEDGER_LOCK_STALE_MS }));
    } catch (err) {
      throw failed(err instanceof LockWaitError ? err.message : `its lock cannot be made (${(err as Error).message})`);
    }
    try {
      let read;
      try {
        read = await readLedgerFile(this.path);
      } catch (err) {
        throw failed(`it cannot be read (${(err as Error).message})`);
      }
      let data: LedgerData;
      if (read.status === 'ok') data = read.data;
      else if (read.status === 'recovered') {
        // Written back at once, so the recovered count stands whatever `change` decides.
        const aside = read.problem === 'corrupt' ? await setAside(this.path, now).catch(() => this.path) : undefined;
        data = read.data;
        await this.writeOrFail(data, strict, failed);
        this.warn(
          `The request ledger ${this.path} was ${aside ? `corrupt (kept as ${aside})` : 'missing'}; its count was recovered from the copy kept beside it.`,
        );
      } else if (strict && !options.startAfresh) {
        throw failed('the ledger is corrupt and no good copy of it is left');
      } else {
        const aside = await setAside(this.path, now).catch(() => this.path);
        this.warn(`The request ledger ${this.path} was not readable and no good copy was left; it was moved to ${aside} and the count starts again.`);
        data = emptyLedger();
      }
      const result = change(data);
      for (const [connection, seen] of this.pending) data.rateLimits[connection] = seen;
      prune(data, now);
      await lock.check().catch((err: Error) => {
        throw failed(err.message);
      });
      await this.writeOrFail(data, strict, failed);
      this.pending.clear();
      return result;
    } finally {
      await lock.release();
    }
  }

  private async writeOrFail(data: LedgerData, durable: boolean, failed: (reason: string) => Error): Promise<void> {
    try {
      await writeLedgerFile(this.path, data, { durable });
    } catch (err) {
      throw failed(`it cannot be written (${(err as Error).message})`);
    }
  }
}
