/**
 * The request ledger: every request sent to the service, counted per origin, key (by hash)
 * and calendar month (UTC), in one small JSON file. Each change is a read-modify-write under
 * an inter-process lock (proper-lockfile: an atomic mkdir, with stale-lock detection by
 * mtime, so a process killed while holding it blocks others for seconds, not forever), and
 * the file is replaced by rename, so a reader without the lock sees the old or the new file,
 * never half of one. `reserve` checks the budget and counts the request in the same locked
 * step, before the request is sent: two processes can never both take the last request.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BudgetExceededError } from '../errors.js';
import type { HeaderBag } from './headers.js';
import { normalOrigin } from './keys.js';
import { LEDGER_LOCK_STALE_MS, LEDGER_MONTHS_KEPT } from '../defaults.js';
import { currentMonth, monthNumber } from './month.js';
import { type RateLimitInfo, rateLimitHeaders } from './rate-limit.js';

/** Waiting for another process's lock: long enough to outlast a stale one. */
const LOCK_RETRIES = { retries: 100, factor: 1.3, minTimeout: 5, maxTimeout: 250, randomize: true };

export interface RateLimitSeen extends RateLimitInfo {
  /** When these headers arrived, ms since the epoch. */
  seenAt: number;
}

export interface LedgerUsage {
  /** `YYYY-MM`, UTC. */
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
  /** month → `<origin> <key hash>` → requests. */
  counts: Record<string, Record<string, number>>;
  /** `<origin> <key hash>` → the last rate-limit headers seen. */
  rateLimits: Record<string, RateLimitSeen>;
}

export interface LedgerOptions {
  /** Told when the file had to be set aside (unreadable JSON) or a lock went wrong. */
  warn?: (message: string) => void;
}

export interface ReserveOptions {
  /** Requests allowed per month; null or undefined: no budget. */
  budget?: number | null;
  now?: number;
}

function emptyLedger(): LedgerData {
  return { version: 1, counts: {}, rateLimits: {} };
}

function connectionKey(origin: string, keyHash: string): string {
  return `${normalOrigin(origin)} ${keyHash}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The ledger's data if `value` has its shape (unknown entries dropped), else undefined. */
function parseLedger(value: unknown): LedgerData | undefined {
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.counts) || !isRecord(value.rateLimits)) return undefined;
  const data = emptyLedger();
  for (const [month, perConnection] of Object.entries(value.counts)) {
    if (!isRecord(perConnection) || Number.isNaN(monthNumber(month))) continue;
    const counts: Record<string, number> = {};
    for (const [connection, n] of Object.entries(perConnection)) {
      if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) counts[connection] = n;
    }
    data.counts[month] = counts;
  }
  for (const [connection, seen] of Object.entries(value.rateLimits)) {
    if (isRecord(seen) && typeof seen.seenAt === 'number' && isRecord(seen.headers)) data.rateLimits[connection] = seen as unknown as RateLimitSeen;
  }
  return data;
}

/** Drops months (and rate-limit sightings) older than the ones kept, so the file stays small. */
function prune(data: LedgerData, now: number): void {
  const oldest = monthNumber(currentMonth(now)) - (LEDGER_MONTHS_KEPT - 1);
  for (const month of Object.keys(data.counts)) if (monthNumber(month) < oldest) delete data.counts[month];
  for (const [connection, seen] of Object.entries(data.rateLimits)) {
    if (monthNumber(currentMonth(seen.seenAt)) < oldest) delete data.rateLimits[connection];
  }
}

function usageOf(data: LedgerData, connection: string, month: string, budget: number | null | undefined): LedgerUsage {
  const requests = data.counts[month]?.[connection] ?? 0;
  const limit = budget ?? null;
  return {
    month,
    requests,
    budget: limit,
    remaining: limit === null ? null : Math.max(0, limit - requests),
    rateLimit: data.rateLimits[connection] ?? null,
  };
}

export class Ledger {
  readonly path: string;
  private readonly warn: (message: string) => void;
  /** Rate-limit headers noted but not yet written, by connection. */
  private readonly pending = new Map<string, RateLimitSeen>();

  constructor(path: string, options: LedgerOptions = {}) {
    this.path = path;
    this.warn = options.warn ?? (() => {});
  }

  /**
   * Counts one request to `origin` with the key hashed as `keyHash`, before it is sent. With
   * a budget, a request that would pass it is refused (BudgetExceededError, nothing counted).
   * Resolves to the month's usage including this request.
   */
  async reserve(origin: string, keyHash: string, options: ReserveOptions = {}): Promise<LedgerUsage> {
    const now = options.now ?? Date.now();
    const month = currentMonth(now);
    const connection = connectionKey(origin, keyHash);
    const budget = options.budget ?? null;
    return this.update(now, (data) => {
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
    await this.update(now, (data) => {
      if (n > 0) (data.counts[month] ??= {})[connection] = (data.counts[month]?.[connection] ?? 0) + n;
      return undefined;
    });
  }

  /**
   * Notes the rate-limit headers of a response (RateLimit-*, X-RateLimit-*) as the last seen
   * for this connection, in memory: they are written with the next reserve() or flush(), so
   * a response costs no extra lock. Returns whether the response had any.
   */
  noteRateLimit(origin: string, keyHash: string, headers: HeaderBag, options: { now?: number } = {}): boolean {
    const info = rateLimitHeaders(headers);
    if (!info) return false;
    this.pending.set(connectionKey(origin, keyHash), { ...info, seenAt: options.now ?? Date.now() });
    return true;
  }

  /** Writes rate-limit headers noted since the last write (call it once at exit). */
  async flush(options: { now?: number } = {}): Promise<void> {
    if (this.pending.size === 0) return;
    await this.update(options.now ?? Date.now(), () => undefined);
  }

  /** noteRateLimit() and flush() at once. */
  async recordRateLimit(origin: string, keyHash: string, headers: HeaderBag, options: { now?: number } = {}): Promise<void> {
    if (this.noteRateLimit(origin, keyHash, headers, options)) await this.flush(options);
  }

  /** The usage of a month (this one by default) without taking the lock: the file is only ever replaced whole. */
  async usage(origin: string, keyHash: string, options: { month?: string; budget?: number | null; now?: number } = {}): Promise<LedgerUsage> {
    const month = options.month ?? currentMonth(options.now ?? Date.now());
    const data = (await this.read()).data ?? emptyLedger();
    for (const [connection, seen] of this.pending) data.rateLimits[connection] = seen;
    return usageOf(data, connectionKey(origin, keyHash), month, options.budget);
  }

  /** The file's data; `data` undefined when it exists but is not a ledger. */
  private async read(): Promise<{ data: LedgerData | undefined; exists: boolean }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { data: emptyLedger(), exists: false };
      throw err;
    }
    try {
      return { data: parseLedger(JSON.parse(text)), exists: true };
    } catch {
      return { data: undefined, exists: true };
    }
  }

  /** Read, change and replace the file under the lock; `change` may throw to leave it as it was. */
  private async update<T>(now: number, change: (data: LedgerData) => T): Promise<T> {
    await mkdir(dirname(this.path), { recursive: true });
    const { lock } = await import('proper-lockfile');
    let compromised: Error | undefined;
    const release = await lock(this.path, {
      realpath: false,
      stale: LEDGER_LOCK_STALE_MS,
      retries: LOCK_RETRIES,
      onCompromised: (err) => {
        compromised = err;
      },
    });
    try {
      let { data } = await this.read();
      if (!data) {
        const aside = `${this.path}.corrupt-${now}`;
        await rename(this.path, aside);
        this.warn(`The request ledger ${this.path} was not readable; it was moved to ${aside} and the count starts again.`);
        data = emptyLedger();
      }
      const result = change(data);
      for (const [connection, seen] of this.pending) data.rateLimits[connection] = seen;
      this.pending.clear();
      prune(data, now);
      await this.write(data);
      return result;
    } finally {
      await release().catch(() => {});
      if (compromised) this.warn(`The lock on the request ledger was lost (${compromised.message}); another process may have updated it at the same time.`);
    }
  }

  /**
   * Replaces the file atomically: a temp file renamed over it, so readers and the next
   * locked update see the old file or the new one, never half of one. Not fsynced: the sync
   * cost milliseconds on every request, and what it guards against (a machine crash or power
   * loss before the data reaches the disk) can at worst lose the last counts, which is
   * acceptable for a request count; a process crash loses nothing once rename() has returned.
   */
  private async write(data: LedgerData): Promise<void> {
    const temp = `${this.path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(data)}\n`, { flag: 'wx', mode: 0o600 });
      await rename(temp, this.path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }
}
