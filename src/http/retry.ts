/**
 * The retry policy (DESIGN.md "Reliability and security rules"), shared by the JSON
 * transport and the media downloader: which failures are worth another attempt, how long
 * to wait before it, and which project error a failed status becomes.
 */
import {
  AuthError,
  type CliError,
  InterruptedError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  UsageError,
} from '../errors.js';
import { CONTROL_CHARS, shorten } from '../util/text.js';

/** Statuses that say "try again later": rate limited, bad gateway, unavailable, gateway timeout. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** First backoff step; doubles per attempt. */
export const RETRY_BASE_MS = 250;
/** Longest backoff step we compute ourselves. */
export const RETRY_MAX_BACKOFF_MS = 8_000;
/** Longest Retry-After we are willing to wait; a longer one ends the retries at once. */
export const RETRY_AFTER_CAP_MS = 30_000;

/** Error codes of connection-level failures that a new attempt may cure. */
const RETRYABLE_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'CONNECT_TIMEOUT',
  'HEADERS_TIMEOUT',
  'BODY_TIMEOUT',
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

/**
 * Connect errors, resets and timeouts are retryable; statuses are judged separately
 * (RETRYABLE_STATUSES), and an abort (Ctrl-C) or a usage/auth/not-found error never is.
 */
export function isRetryableError(err: unknown): boolean {
  if (err instanceof InterruptedError) return false;
  if (err instanceof NetworkError) return err.code === 'network' || err.code === 'timeout';
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown };
  if (e.name === 'AbortError') return false;
  if (typeof e.code === 'string' && RETRYABLE_CODES.has(e.code)) return true;
  return e.cause !== undefined && e.cause !== err ? isRetryableError(e.cause) : false;
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date. Undefined when absent or
 * unreadable. Not capped: callers compare it with RETRY_AFTER_CAP_MS.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * How long to wait before retry number `attempt` (1 for the first retry): exponential
 * backoff with jitter (half fixed, half random, so concurrent clients spread out), unless
 * the server said when to come back — then that, capped at RETRY_AFTER_CAP_MS.
 */
export function retryDelayMs(attempt: number, retryAfter?: string): number {
  const asked = parseRetryAfter(retryAfter);
  if (asked !== undefined) return Math.min(asked, RETRY_AFTER_CAP_MS);
  const step = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_BACKOFF_MS);
  return Math.round(step / 2 + Math.random() * (step / 2));
}

/** Waits, or rejects with InterruptedError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new InterruptedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}


/**
 * The `message` of our server's error shape `{"error":{"code","message","parameter?"}}`,
 * cleaned for a terminal and shortened; undefined for any other body.
 */
export function serverErrorMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    const message = parsed?.error?.message;
    if (typeof message !== 'string' || message.trim() === '') return undefined;
    const clean = message.replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').trim();
    return shorten(clean, 300);
  } catch {
    return undefined;
  }
}

/**
 * Maps a non-2xx status to the project's error. `what` names the request for the message
 * (e.g. "GET /exercise/query"); `body` is the response text, whose server message is quoted
 * when it has our JSON error shape.
 */
export function errorForStatus(status: number, what: string, body?: string): CliError {
  const said = serverErrorMessage(body);
  const because = said ? `: ${said}` : '.';
  const details = { status, request: what, ...(said ? { serverMessage: said } : {}) };
  switch (status) {
    case 400:
    case 422:
      return new UsageError(`The service refused ${what} as invalid (${status})${because}`, {
        hint: 'Check the flags and values given; run with --help for the accepted ones.',
        details,
      });
    case 401:
      return new AuthError(`The service rejected the API key (401) for ${what}${because}`, {
        hint: 'Check the key: `exercises auth status` shows which one is in use; `exercises auth login` stores a new one.',
        details,
      });
    case 403:
      return new AuthError(`The service refused ${what} (403): your plan does not include it${said ? ` (${said})` : ''}.`, {
        forbidden: true,
        hint: 'Premium fields, images and videos need a premium plan key.',
        details,
      });
    case 404:
      return new NotFoundError(`Not found (404): ${what}${said ? ` — ${said}` : ''}.`, { details });
    case 429:
      return new RateLimitError(`The service is rate limiting requests (429) for ${what}${because}`, {
        hint: 'Wait a while before trying again, or raise --retries; the free plan allows few requests a month.',
        details,
      });
    default:
      return new NetworkError(
        status >= 500
          ? `The service failed (${status}) on ${what}${because}`
          : `The service answered ${what} with an unexpected status ${status}${because}`,
        {
          kind: 'server_error',
          hint: status >= 500 ? 'Try again later; run with --verbose to see each attempt.' : 'Run with --verbose to see the request.',
          details,
        },
      );
  }
}
