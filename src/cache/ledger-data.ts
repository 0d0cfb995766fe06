/**
 * The request ledger's data, apart from its file: the shape, how a file's JSON is checked
 * (unknown entries dropped), the months it counts in (calendar months in UTC, `YYYY-MM`),
 * pruning old months, and the usage of one connection.
 */
import { normalOrigin } from './cached-get.js';
import { LEDGER_MONTHS_KEPT } from '../defaults.js';
import type { RateLimitInfo } from './headers.js';

/** The month `now` falls in, in UTC. */
export function currentMonth(now: number | Date = Date.now()): string {
  const date = typeof now === 'number' ? new Date(now) : now;
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Months since year 0 (`2025-01` → 24300), for comparing and pruning; NaN for anything else. */
export function monthNumber(month: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return Number.NaN;
  const m = Number(match[2]);
  return m >= 1 && m <= 12 ? Number(match[1]) * 12 + (m - 1) : Number.NaN;
}

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

export interface LedgerData {
  version: 1;
  /** month → `<origin> <key hash>` → requests. */
  counts: Record<string, Record<string, number>>;
  /** `<origin> <key hash>` → the last rate-limit headers seen. */
  rateLimits: Record<string, RateLimitSeen>;
}

export function emptyLedger(): LedgerData {
  return { version: 1, counts: {}, rateLimits: {} };
}

export function connectionKey(origin: string, keyHash: string): string {
  return `${normalOrigin(origin)} ${keyHash}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The ledger's data if `value` has its shape (unknown entries dropped), else undefined. */
export function parseLedger(value: unknown): LedgerData | undefined {
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
export function prune(data: LedgerData, now: number): void {
  const oldest = monthNumber(currentMonth(now)) - (LEDGER_MONTHS_KEPT - 1);
  for (const month of Object.keys(data.counts)) if (monthNumber(month) < oldest) delete data.counts[month];
  for (const [connection, seen] of Object.entries(data.rateLimits)) {
    if (monthNumber(currentMonth(seen.seenAt)) < oldest) delete data.rateLimits[connection];
  }
}

export function usageOf(data: LedgerData, connection: string, month: string, budget: number | null | undefined): LedgerUsage {
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
