/**
 * The ledger of replicas sharing a Redis: a month's count is one key, checked and counted in one Lua
 * script, so N replicas never pass the budget together. Each replica puts back the highest count it
 * saw when Redis returns without it; the keys never expire, so no eviction policy drops a count.
 */
import type { Redis } from 'ioredis';
import { type LedgerUsage, currentMonth } from '../cache/ledger.js';
import { normalOrigin } from '../cache/cached-get.js';
import { BudgetExceededError } from '../errors.js';
import type { SharedState } from './shared-state.js';

/** KEYS[1] the count; ARGV: the budget (-1: none), the floor. Returns {1, count} when counted, {0, count} when refused. */
const RESERVE = `local n = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(ARGV[2]))
if tonumber(ARGV[1]) >= 0 and n >= tonumber(ARGV[1]) then redis.call('SET', KEYS[1], n) return {0, n} end
redis.call('SET', KEYS[1], n + 1) return {1, n + 1}`;
/** KEYS[1] the count, one less, never below 0. */
const GIVE_BACK = `local n = math.max(0, tonumber(redis.call('GET', KEYS[1]) or '0') - 1) redis.call('SET', KEYS[1], n) return n`;
/** KEYS[1] the count, raised to ARGV[1] when lower. */
const FLOOR = `local n = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(ARGV[1])) redis.call('SET', KEYS[1], n) return n`;

export class SharedLedger {
  /** The count last seen per Redis key. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly state: SharedState) {
    state.onReady.push((redis) => this.putBack(redis));
  }

  private key(origin: string, keyHash: string, month: string): string {
    return `exercises:ledger:${month}:${normalOrigin(origin)} ${keyHash}`;
  }

  private saw(key: string, count: number): number {
    this.seen.set(key, Math.max(count, this.seen.get(key) ?? 0));
    return count;
  }

  private async putBack(redis: Redis): Promise<void> {
    for (const [key, count] of this.seen) await redis.eval(FLOOR, 1, key, count);
  }

  private usageOf(month: string, requests: number, budget: number | null): LedgerUsage {
    return { month, requests, budget, remaining: budget === null ? null : Math.max(0, budget - requests), rateLimit: null };
  }

  async reserve(origin: string, keyHash: string, options: { budget?: number | null } = {}): Promise<LedgerUsage> {
    const budget = options.budget ?? null;
    const month = currentMonth();
    const key = this.key(origin, keyHash, month);
    const floor = this.seen.get(key) ?? 0;
    const [counted, n] = (await this.state.command((redis) => redis.eval(RESERVE, 1, key, budget ?? -1, floor))) as [number, number];
    this.saw(key, n);
    if (!counted) throw new BudgetExceededError({ month, requests: n, budget: budget!, origin: normalOrigin(origin) });
    return this.usageOf(month, n, budget);
  }

  async giveBack(origin: string, keyHash: string, month: string): Promise<void> {
    const key = this.key(origin, keyHash, month);
    const n = Number(await this.state.command((redis) => redis.eval(GIVE_BACK, 1, key)));
    // What it gave back is no longer a floor to restore.
    this.seen.set(key, n);
  }

  async usage(origin: string, keyHash: string, options: { budget?: number | null } = {}): Promise<LedgerUsage> {
    const month = currentMonth();
    const key = this.key(origin, keyHash, month);
    const n = this.saw(key, Number((await this.state.command((redis) => redis.get(key))) ?? 0));
    return this.usageOf(month, n, options.budget ?? null);
  }
}
