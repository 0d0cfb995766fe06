/**
 * One fill across replicas sharing a Redis: the first to miss takes a lock (SET NX PX, renewed while it
 * fills); the others wait until it is gone, then take what was filled or fill in turn. JSON answers are
 * kept in Redis with their freshness until stale, so one replica's miss is the others' hit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { storedPolicy } from '../cache/headers.js';
import { parseFreshness } from '../cache/store-files.js';
import { FILL_LOCK_MS, FILL_POLL_MS } from '../config/time-limits.js';
import { type StoredAnswer, storedAnswer } from './answer-store.js';
import type { SharedState } from './shared-state.js';

/** Larger answers are not shared (each replica fetches its own): Redis holds many small answers, not a few huge ones. */
const SHARED_ANSWER_MAX_BYTES = 1024 * 1024;

/** KEYS[1] a lock: deleted (ARGV[2] absent) or its expiry renewed to ARGV[2] ms, only while it is still ARGV[1]'s. */
const MINE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return redis.call('DEL', KEYS[1])`;

const hashed = (kind: string, name: string): string => `exercises:${kind}:${createHash('sha256').update(name).digest('hex')}`;

export class SharedFill {
  constructor(
    private readonly state: SharedState,
    /** Aborted when the proxy stops: waits end. */
    private readonly signal: AbortSignal,
  ) {}

  /**
   * `found(waited)` until it gives something, filling under the lock of `name` when it does not
   * and no other replica is; `waited` says another replica's fill was waited for.
   */
  async once<T>(name: string, found: (waited: boolean) => Promise<T | undefined>, fill: () => Promise<T>): Promise<T> {
    const lock = hashed('lock', name);
    for (let waited = false; ; waited = true) {
      const got = await found(waited);
      if (got !== undefined) return got;
      const token = randomUUID();
      if ((await this.state.command((redis) => redis.set(lock, token, 'PX', FILL_LOCK_MS, 'NX'))) === 'OK') {
        const renew = setInterval(() => void this.state.command((redis) => redis.eval(MINE, 1, lock, token, FILL_LOCK_MS)).catch(() => {}), FILL_LOCK_MS / 3);
        try {
          return await fill();
        } finally {
          clearInterval(renew);
          await this.state.command((redis) => redis.eval(MINE, 1, lock, token)).catch(() => {});
        }
      }
      while (await this.state.command((redis) => redis.exists(lock))) await sleep(FILL_POLL_MS, undefined, { signal: this.signal });
    }
  }

  /** The JSON answer kept under `key` by any replica; undefined when none is (or it does not read back). */
  async answer(key: string): Promise<StoredAnswer | undefined> {
    const kept = await this.state.command((redis) => redis.getBuffer(hashed('answer', key)));
    const newline = kept?.indexOf(10) ?? -1;
    if (!kept || newline < 0) return undefined;
    try {
      const freshness = parseFreshness(JSON.parse(kept.subarray(0, newline).toString('utf8')) as Record<string, unknown>);
      return freshness && storedAnswer(freshness, await storedPolicy(freshness), kept.subarray(newline + 1));
    } catch {
      return undefined;
    }
  }

  /** Keeps `entry` for the other replicas until it is stale by `freshUntil` (ms since the epoch). Failures are said by the link, not thrown. */
  async share(key: string, entry: StoredAnswer, freshUntil: number): Promise<void> {
    const ms = Math.floor(freshUntil - Date.now());
    if (ms <= 0 || entry.body.length > SHARED_ANSWER_MAX_BYTES) return;
    const value = Buffer.concat([Buffer.from(`${JSON.stringify(entry.freshness)}\n`), entry.body]);
    await this.state.command((redis) => redis.set(hashed('answer', key), value, 'PX', ms)).catch(() => {});
  }
}
