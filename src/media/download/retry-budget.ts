/**
 * The downloader's count of failures for one file. Retries follow the shared policy of
 * src/http/retry-policy.ts, within its cap on attempts per file; a failure that brought new
 * bytes to disk does not use up an attempt, so a flaky connection that keeps making progress
 * still finishes.
 */
import type { CliError } from '../../errors.js';
import { decideRetry, sleep } from '../../http/retry-policy.js';
import type { DownloadOptions } from './types.js';

/** Counts a failure; throws `err` once the attempts are spent, else waits the backoff. */
export type CountFailure = (err: CliError, retryAfter?: string) => Promise<void>;

/** The failure count of a file `start` bytes of which are held; `held` reads the bytes held now (the sink's size). */
export function retryBudget(held: () => number, start: number, options: Pick<DownloadOptions, 'retries' | 'signal' | 'log'>, what: string): CountFailure {
  /** Failures since the last new byte reached the disk. */
  let fruitless = 0;
  /** Attempts that failed, in all. */
  let attempts = 0;
  /** Furthest point ever held; only getting past it counts as progress. */
  let furthest = start;
  return async (err, retryAfter) => {
    if (held() > furthest) {
      furthest = held();
      fruitless = 0;
    }
    fruitless += 1;
    attempts += 1;
    const decision = decideRetry({ attempts, fruitless }, options.retries, err, retryAfter);
    if (!decision.retry) throw decision.error;
    options.log?.(`${what}: ${err.message} — retrying in ${decision.delayMs} ms`);
    await sleep(decision.delayMs, options.signal);
  };
}
