/** The one retry policy, JSON and media alike: which failures to retry, how long to wait, when to stop (docs/development.md says why not undici's). */
import { type CliError, InterruptedError, NetworkError, RateLimitError } from '../errors.js';
import { MAX_ATTEMPTS_PER_ITEM, RETRY_AFTER_CAP_MS, RETRY_BASE_MS, RETRY_MAX_BACKOFF_MS } from '../defaults.js';
import { plural } from '../util/text.js';
import { setTimeout as delay } from 'node:timers/promises';

export { MAX_ATTEMPTS_PER_ITEM, RETRY_AFTER_CAP_MS };

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Connection-level failures a new attempt may cure. */
const RETRYABLE_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/** Connect errors, resets and timeouts are retryable; an abort or a usage, auth or not-found error never is. */
export function isRetryableError(err: unknown): boolean {
  if (err instanceof InterruptedError) return false;
  if (err instanceof NetworkError) return err.code === 'network' || err.code === 'timeout';
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown };
  if (e.name === 'AbortError') return false;
  if (typeof e.code === 'string' && RETRYABLE_CODES.has(e.code)) return true;
  return e.cause !== undefined && e.cause !== err ? isRetryableError(e.cause) : false;
}

/** Retry-After (delta-seconds or an HTTP date) in ms, uncapped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before retry number `attempt`: Retry-After (capped), else backoff half fixed, half random. */
export function retryDelayMs(attempt: number, retryAfter?: string): number {
  const asked = parseRetryAfter(retryAfter);
  if (asked !== undefined) return Math.min(asked, RETRY_AFTER_CAP_MS);
  const step = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_BACKOFF_MS);
  return Math.round(step / 2 + Math.random() * (step / 2));
}

export interface AttemptTally {
  /** Attempts made so far (1 after the first). */
  attempts: number;
  /** Failures in a row that brought nothing new (more bytes on disk start the count again); for JSON, `attempts`. */
  fruitless?: number;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; error: CliError };

/** After a retryable failure: stop for a final one or a Retry-After past the cap, or after `retries` fruitless failures or MAX_ATTEMPTS_PER_ITEM; else retry. */
export function decideRetry(tally: AttemptTally, retries: number, failure: CliError, retryAfter?: string): RetryDecision {
  // A failure marked final (a team proxy whose upstream key is refused).
  if (failure.details?.final === true) return { retry: false, error: failure };
  const fruitless = tally.fruitless ?? tally.attempts;
  const asked = parseRetryAfter(retryAfter);
  if ((asked !== undefined && asked > RETRY_AFTER_CAP_MS) || fruitless > retries || tally.attempts >= MAX_ATTEMPTS_PER_ITEM) {
    return { retry: false, error: finalError(failure, tally.attempts, asked, retryAfter) };
  }
  return { retry: true, delayMs: retryDelayMs(fruitless, retryAfter) };
}

/** The error when the retries end: it says the wait asked for, and for a rate limit the attempts made. */
function finalError(failure: CliError, attempts: number, askedMs: number | undefined, retryAfter: string | undefined): CliError {
  // A proxy's spent budget says the date it starts again: no seconds beside it.
  const wait = askedMs !== undefined && failure.details?.proxyBudget !== true ? ` The service asks to wait ${Math.max(1, Math.ceil(askedMs / 1000))} s.` : '';
  if (failure instanceof RateLimitError) {
    return new RateLimitError(`${failure.message.replace(/[.:]?$/, '')} (after ${plural(attempts, 'attempt')}).${wait}`, {
      hint: failure.hint,
      details: { ...failure.details, attempts, ...(retryAfter ? { retryAfter } : {}) },
      cause: failure.cause,
    });
  }
  // A 503 with a long Retry-After (maintenance): the same sentence, on the error the status gave.
  if (wait && !failure.message.endsWith(wait)) failure.message = `${failure.message.replace(/\.?$/, '.')}${wait}`;
  return failure;
}

/** Waits, or rejects with InterruptedError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : {}).catch(() => Promise.reject(new InterruptedError()));
}
