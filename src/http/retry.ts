/**
 * The transport layer (exchange.ts) that retries JSON requests under the one retry policy
 * (retry-policy.ts: which failures, how long to wait, when to stop and what to say then), with
 * a --verbose line per attempt (the attempt number, the time to its last body byte, the quota
 * headers) and the waits between attempts counted in the command's deadline. A retryable
 * status that ends the retries becomes its error here; any other answer is passed up as it is.
 *
 * The --verbose lines are written here rather than from undici's diagnostics channels
 * (undici:request:create, :headers…): those are process-wide, carrying every transport's
 * requests, so each message would have to be matched back to its transport and attempt; this
 * loop knows the attempt number and whether it will retry.
 */
import { type CliError, NetworkError } from '../errors.js';
import { type Exchange, headerValue, quotaHeaders } from './exchange.js';
import { RETRYABLE_STATUSES, decideRetry, isRetryableError, sleep } from './retry-policy.js';
import { type CommandDeadline, isCommandDeadline } from './command-deadline.js';
import { errorForStatus } from './status-errors.js';
import { nowMs } from './deadline.js';

export interface RetryOptions {
  /** Extra attempts for retryable failures. */
  retries: number;
  /** Ctrl-C: ends a wait at once. */
  signal?: AbortSignal | undefined;
  /** The whole command's deadline, which the waits count in; none without it. */
  command?: CommandDeadline | undefined;
  /** --verbose (lines redacted by the caller); absent, no line is even built. */
  log?: ((line: string) => void) | undefined;
  /** Keeps the key out of server text. */
  redact: (text: string) => string;
}

export function retrying(next: Exchange<Buffer>, options: RetryOptions): Exchange<Buffer> {
  const { retries, log, redact } = options;
  const planned = retries + 1;
  return async (request) => {
    const { url, what } = request;
    for (let attempt = 1; ; attempt++) {
      const started = nowMs();
      let retryAfter: string | undefined;
      let failure: CliError;
      try {
        const res = await next(request);
        retryAfter = headerValue(res.headers, 'retry-after');
        if (log) {
          const quota = quotaHeaders(res.headers);
          log(`GET ${url.href} → ${res.status} ${Math.round(nowMs() - started)} ms (attempt ${attempt}/${planned})${quota ? ` ${quota}` : ''}`);
        }
        if (!RETRYABLE_STATUSES.has(res.status)) return res;
        failure = errorForStatus(res.status, what, redact(res.body.toString('utf8')), redact);
      } catch (err) {
        if (!(err instanceof NetworkError) || !isRetryableError(err) || isCommandDeadline(err)) throw err;
        log?.(`GET ${url.href} → failed after ${Math.round(nowMs() - started)} ms (attempt ${attempt}/${planned}): ${err.message}`);
        failure = err;
      }

      const decision = decideRetry({ attempts: attempt }, retries, failure, retryAfter);
      if (!decision.retry) {
        if (attempt < planned) log?.(`not retrying: ${decision.error.message}`);
        throw decision.error;
      }
      await waitToRetry(options, decision.delayMs, what, retryAfter);
    }
  };
}

/** The wait before a retry, counted in the command's deadline; a wait past what is left of it ends the command now. */
async function waitToRetry(options: RetryOptions, delayMs: number, what: string, retryAfter: string | undefined): Promise<void> {
  const command = options.command;
  if (command && delayMs >= command.remainingMs()) {
    const asked = retryAfter !== undefined ? `the service asked to wait ${Math.round(delayMs / 1000)} s (Retry-After)` : `a retry would wait ${delayMs} ms`;
    throw command.error(what, `before the next attempt: ${asked}`);
  }
  options.log?.(`retrying in ${delayMs} ms`);
  const endBusy = command?.begin();
  try {
    await sleep(delayMs, options.signal);
  } finally {
    endBusy?.();
  }
}
