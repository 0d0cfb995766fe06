/**
 * The request ledger: requests sent to the service per origin, key hash and UTC month, in one
 * small JSON file changed under the one inter-process lock (util/file-lock.ts) and replaced by
 * rename. `reserve` checks the budget and counts in the same locked step, so two processes never
 * both take the last request; a copy, `<ledger>.prev`, recovers a corrupt or removed ledger.
 * `strict` updates (a budget in force) never guess: a lock, read or write that fails, or a corrupt
 * file with no good copy, is BudgetUncheckedError, and the file is fsynced before the request it
 * counts is sent. Without a budget a corrupt file is set aside and the count starts again.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { LEDGER_FILE_MAX_BYTES, LEDGER_LOCK_STALE_MS, LEDGER_MONTHS_KEPT } from '../defaults.js';
import { BudgetExceededError, BudgetUncheckedError } from '../errors.js';
import { LockWaitError, lockFile } from '../util/file-lock.js';
import { RefusedFileError, readRegularFileSync } from '../util/safe-open.js';
import { type HeaderBag, type RateLimitInfo, rateLimitHeaders } from './headers.js';
import { normalOrigin } from './cached-get.js';
import { replaceFileSync } from './store-files.js';

/** Longest wait for the ledger's lock someone keeps fresh: past it the update fails (exit 5 with a budget). */
const LEDGER_LOCK_WAIT_MS = 15_000;

/** The origin a connection is counted under: the --sandbox server's port changes each run, so it has one fixed name. */
export const SANDBOX_LEDGER_ORIGIN = 'http://sandbox.invalid';
export function ledgerOrigin(conn: { baseUrl: string; baseUrlSource?: string }): string {
  return conn.baseUrlSource === 'sandbox' ? SANDBOX_LEDGER_ORIGIN : new URL(conn.baseUrl).origin;
}

/** The month `now` falls in, in UTC. */
export function currentMonth(now: number | Date = Date.now()): string {
  const date = typeof now === 'number' ? new Date(now) : now;
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Months since year 0 (`2025-01` → 24300), for comparing and pruning; NaN for anything else. */
export function monthNumber(month: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const m = Number(match?.[2]);
  return match && m >= 1 && m <= 12 ? Number(match[1]) * 12 + (m - 1) : Number.NaN;
}

export interface RateLimitSeen extends RateLimitInfo {
  /** When these headers arrived, ms since the epoch. */
  seenAt: number;
}

export interface LedgerUsage {
  month: string;
  /** Requests sent (reserved) to this origin with this key in the month. */
  requests: number;
  budget: number | null;
  /** budget − requests, never below 0; null without a budget. */
  remaining: number | null;
  /** The last rate-limit headers seen from this origin with this key; null when none were. */
  rateLimit: RateLimitSeen | null;
}

interface LedgerData {
  version: 1;
  /** month → `<origin> <key hash>` (connectionKey) → requests. */
  counts: Record<string, Record<string, number>>;
  rateLimits: Record<string, RateLimitSeen>;
}

const emptyLedger = (): LedgerData => ({ version: 1, counts: {}, rateLimits: {} });
const connectionKey = (origin: string, keyHash: string): string => `${normalOrigin(origin)} ${keyHash}`;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The ledger's data if `value` has its shape (unknown entries dropped), else undefined. */
function parseLedger(value: unknown): LedgerData | undefined {
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.counts) || !isRecord(value.rateLimits)) return undefined;
  const data = emptyLedger();
  for (const [month, perConnection] of Object.entries(value.counts)) {
    if (!isRecord(perConnection) || Number.isNaN(monthNumber(month))) continue;
    data.counts[month] = Object.fromEntries(
      Object.entries(perConnection).filter(([, n]) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0),
    ) as Record<string, number>;
  }
  for (const [connection, seen] of Object.entries(value.rateLimits)) {
    if (isRecord(seen) && typeof seen.seenAt === 'number' && isRecord(seen.headers)) data.rateLimits[connection] = seen as unknown as RateLimitSeen;
  }
  return data;
}

function usageOf(data: LedgerData, connection: string, month: string, budget: number | null | undefined): LedgerUsage {
  const requests = data.counts[month]?.[connection] ?? 0;
  const limit = budget ?? null;
  return { month, requests, budget: limit, remaining: limit === null ? null : Math.max(0, limit - requests), rateLimit: data.rateLimits[connection] ?? null };
}

/**
 * The parsed file at `path`: undefined when absent; 'corrupt' when not a ledger, which includes a
 * FIFO, a device or an oversized file in its place (opened by the one rule, util/safe-open.ts, so
 * such a file never hangs a command). Other read errors throw.
 */
function parseFile(path: string): LedgerData | 'corrupt' | undefined {
  try {
    return parseLedger(JSON.parse(readRegularFileSync(path, { maxBytes: LEDGER_FILE_MAX_BYTES }).toString('utf8'))) ?? 'corrupt';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (err instanceof RefusedFileError || err instanceof SyntaxError) return 'corrupt';
    throw err;
  }
}

/** `work`'s result; when it throws, undefined (for the extras no update depends on: the copy, a directory's sync) or `failure(err)`. */
function quietly<T>(work: () => T, failure?: (err: Error) => Error): T | undefined {
  try {
    return work();
  } catch (err) {
    if (failure) throw failure(err as Error);
    return undefined;
  }
}

type LedgerRead = { status: 'ok'; data: LedgerData } | { status: 'recovered'; data: LedgerData; problem: 'corrupt' | 'missing' } | { status: 'corrupt' };

/** The ledger, or its `.prev` copy when it is corrupt or gone and the copy is good. File-system errors throw. */
function readLedgerFile(path: string): LedgerRead {
  const found = parseFile(path);
  if (found !== undefined && found !== 'corrupt') return { status: 'ok', data: found };
  const previous = quietly(() => parseFile(`${path}.prev`));
  if (previous && previous !== 'corrupt') return { status: 'recovered', data: previous, problem: found === undefined ? 'missing' : 'corrupt' };
  return found === undefined ? { status: 'ok', data: emptyLedger() } : { status: 'corrupt' };
}

/**
 * Replaces the ledger, then its copy; `durable`: the ledger and its directory are fsynced first. A copy that cannot be
 * written is no error. Synchronous: the file is a few hundred bytes, written at once rather than through the thread
 * pool.
 */
function writeLedgerFile(path: string, data: LedgerData, durable: boolean): void {
  const text = `${JSON.stringify(data)}\n`;
  replaceFileSync(path, text, durable);
  const dir = durable ? quietly(() => openSync(dirname(path), 'r')) : undefined;
  if (dir !== undefined) {
    quietly(() => fsyncSync(dir)); // not every file system syncs a directory
    closeSync(dir);
  }
  quietly(() => replaceFileSync(`${path}.prev`, text));
}

/** `strict`: a budget is in force (see above); `startAfresh`: a corrupt ledger with no good copy starts again even so. */
type UpdateMode = { strict: boolean; startAfresh?: boolean };

type LedgerOptions = {
  /** Told when the file had to be recovered or set aside. */
  warn?: (message: string) => void;
  /** Applied to every rate-limit header value before it is kept (util/text.ts: a server may echo the key). */
  redact?: (text: string) => string;
  /** The lock's bounded wait, ms (LEDGER_LOCK_WAIT_MS by default). */
  lockWaitMs?: number;
};

export class Ledger {
  /** Rate-limit headers noted but not yet written, by connection. */
  private readonly pending = new Map<string, RateLimitSeen>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly options: LedgerOptions = {},
  ) {}

  /** Counts one request before it is sent; with a budget, refuses one that would pass it (BudgetExceededError) or cannot be counted durably. */
  async reserve(origin: string, keyHash: string, options: { budget?: number | null; now?: number } = {}): Promise<LedgerUsage> {
    const budget = options.budget ?? null;
    const { data, month } = await this.count({ origin, keyHash, ...options }, { strict: budget !== null }, (requests, month) => {
      if (budget !== null && requests >= budget) throw new BudgetExceededError({ month, requests, budget, origin: normalOrigin(origin) });
      return requests + 1;
    });
    return usageOf(data, connectionKey(origin, keyHash), month, budget);
  }

  /** Gives back one request reserved in `month` that never reached the service, as durably as reserve() counted it; never below 0. */
  async giveBack(origin: string, keyHash: string, month: string, options: { now?: number } = {}): Promise<void> {
    await this.count({ origin, keyHash, ...options, month }, { strict: true }, (requests) => requests - 1);
  }

  /** Adds `n` requests already sent (n < 0: takes off requests that never left), with no budget: the batches of http/counting.ts. */
  async add(origin: string, keyHash: string, n: number, options: { now?: number } = {}): Promise<void> {
    if (n !== 0 || this.pending.size > 0) await this.count({ origin, keyHash, ...options }, { strict: false }, (requests) => requests + n);
  }

  /** Sets this month's count of one connection back to 0 (`quota --reset-month`; a corrupt ledger is started afresh). Resolves to the count it had. */
  async resetMonth(origin: string, keyHash: string, options: { now?: number } = {}): Promise<number> {
    return (await this.count({ origin, keyHash, ...options }, { strict: true, startAfresh: true }, () => 0)).had;
  }

  /** One connection's count in a month (this one by default) changed by `next` under the lock, never below 0; resolves to what it had. */
  private count(at: { origin: string; keyHash: string; now?: number; month?: string }, mode: UpdateMode, next: (requests: number, month: string) => number) {
    const now = at.now ?? Date.now();
    const [month, connection] = [at.month ?? currentMonth(now), connectionKey(at.origin, at.keyHash)];
    return this.update(now, mode, (data) => {
      const had = data.counts[month]?.[connection] ?? 0;
      (data.counts[month] ??= {})[connection] = Math.max(0, next(had, month));
      return { data, month, had };
    });
  }

  /**
   * Notes a response's rate-limit headers, redacted, as the last seen for this connection, in memory: written with the next
   * update or flush(), so a response costs no lock of its own. Returns whether it had any.
   */
  noteRateLimit(origin: string, keyHash: string, headers: HeaderBag, options: { now?: number } = {}): boolean {
    const info = rateLimitHeaders(headers, this.options.redact);
    if (info) this.pending.set(connectionKey(origin, keyHash), { ...info, seenAt: options.now ?? Date.now() });
    return info !== undefined;
  }

  /** Writes rate-limit headers noted since the last write (call it once at exit). */
  async flush(options: { now?: number } = {}): Promise<void> {
    if (this.pending.size > 0) await this.update(options.now ?? Date.now(), { strict: false }, () => undefined);
  }

  /**
   * A month's usage (this one by default) without the lock (the file is only ever replaced whole). A corrupt file with no
   * good copy reads as empty, or with a budget throws BudgetUncheckedError (the count is unknown).
   */
  async usage(origin: string, keyHash: string, options: { month?: string; budget?: number | null; now?: number } = {}): Promise<LedgerUsage> {
    const strict = options.budget !== undefined && options.budget !== null;
    const unknown = (reason: string): BudgetUncheckedError => new BudgetUncheckedError(this.path, reason);
    const read = quietly(
      () => readLedgerFile(this.path),
      (err) => (strict ? unknown(`it cannot be read (${err.message})`) : err),
    )!;
    if (read.status === 'corrupt' && strict) throw unknown('the ledger is corrupt and no good copy of it is left');
    const data = read.status === 'corrupt' ? emptyLedger() : read.data;
    for (const [connection, seen] of this.pending) data.rateLimits[connection] = seen;
    return usageOf(data, connectionKey(origin, keyHash), options.month ?? currentMonth(options.now ?? Date.now()), options.budget);
  }

  /** One update at a time in this process (the file lock excludes other processes only). */
  private update<T>(now: number, mode: UpdateMode, change: (data: LedgerData) => T): Promise<T> {
    const run = this.queue.then(() => this.locked(now, mode.strict, change, mode.startAfresh === true));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Read, change and replace the file under the lock; `change` may throw to leave it as it was. */
  private async locked<T>(now: number, strict: boolean, change: (data: LedgerData) => T, startAfresh: boolean): Promise<T> {
    const failed = (reason: string): Error => (strict ? new BudgetUncheckedError(this.path, reason) : new Error(`${reason} (${this.path})`));
    /** A file-system step whose error fails the update, saying `what` could not be done. */
    const step = <R>(what: string, work: () => R): R => quietly(work, (err) => failed(`${what} (${err.message})`))!;
    const write = (data: LedgerData): void => step('it cannot be written', () => writeLedgerFile(this.path, data, strict));
    const warn = this.options.warn ?? (() => {});
    let lock;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      ({ lock } = await lockFile(this.path, { waitMs: this.options.lockWaitMs ?? LEDGER_LOCK_WAIT_MS, staleMs: LEDGER_LOCK_STALE_MS }));
    } catch (err) {
      throw failed(err instanceof LockWaitError ? err.message : `its lock cannot be made (${(err as Error).message})`);
    }
    try {
      const read = step('it cannot be read', () => readLedgerFile(this.path));
      const aside = `${this.path}.corrupt-${now}`; // a corrupt file is moved here, kept for a look
      const setAside = (): string =>
        quietly(() => {
          renameSync(this.path, aside);
          return aside;
        }) ?? this.path;
      let data: LedgerData;
      if (read.status === 'ok') data = read.data;
      else if (read.status === 'recovered') {
        // Written back at once, so the recovered count stands whatever `change` decides.
        const kept = read.problem === 'corrupt' ? setAside() : undefined;
        write((data = read.data));
        warn(`The request ledger ${this.path} was ${kept ? `corrupt (kept as ${kept})` : 'missing'}; its count was recovered from the copy kept beside it.`);
      } else if (strict && !startAfresh) {
        throw failed('the ledger is corrupt and no good copy of it is left');
      } else {
        warn(`The request ledger ${this.path} was not readable and no good copy was left; it was moved to ${setAside()} and the count starts again.`);
        data = emptyLedger();
      }
      const result = change(data);
      for (const [connection, seen] of this.pending) data.rateLimits[connection] = seen;
      // Months (and rate-limit sightings) older than the ones kept are dropped, so the file stays small.
      const oldest = monthNumber(currentMonth(now)) - (LEDGER_MONTHS_KEPT - 1);
      for (const month of Object.keys(data.counts)) if (monthNumber(month) < oldest) delete data.counts[month];
      for (const [connection, seen] of Object.entries(data.rateLimits)) if (monthNumber(currentMonth(seen.seenAt)) < oldest) delete data.rateLimits[connection];
      await lock.check().catch((err: Error) => Promise.reject(failed(err.message)));
      write(data);
      this.pending.clear();
      return result;
    } finally {
      await lock.release();
    }
  }
}
