/**
 * The downloader's count of failures for one file. Retries follow the shared policy of
 * src/http/retry-policy.ts, within its cap on attempts per file; a failure that brought new
 * bytes to disk does not use up an attempt, so a flaky connection that keeps making progress
 * still finishes.
 */
import type { CliError } from '../../errors.js';
import { decideRetry, sleep } from '../../http/retry-policy.js';
import type { DownloadOptions } from './types.js';

export class RetryBudget {
  /** Failures since the last new byte reached the disk. */
  private failures = 0;
  /** Attempts that failed, in all. */
  private attempts = 0;
  /** Furthest point ever held; only getting past it counts as progress. */
  private furthest: number;

  constructor(
    /** Bytes held now (the sink's size). */
    private readonly held: () => number,
    start: number,
    private readonly options: Pick<DownloadOptions, 'retries' | 'signal' | 'log'>,
    private readonly what: string,
  ) {
    this.furthest = start;
  }

  /** Counts a failure; throws `err` once the attempts are spent, else waits the backoff. */
  async failed(err: CliError, retryAfter?: string): Promise<void> {
    const held = this.held();
    if (held > this.furthest) {
      this.furthest = held;
      this.failures = 0;
    }
    this.failures += 1;
    this.attempts += 1;
    const decision = decideRetry({ attempts: this.attempts, fruitless: this.failures }, this.options.retries, err, retryAfter);
    if (!decision.retry) throw decision.error;
    const delay = decision.delayMs;
    this.options.log?.(`${this.what}: ${err.message} — retrying in ${delay} ms`);
    await sleep(delay, this.options.signal);
  }
}
