/**
 * What the proxy sends, before it is sent: an answer is a status, headers and a whole body,
 * and how it was had (the access log's outcome). Error answers have the server's error shape
 * `{"error":{"code","message"}}`, never cached (Cache-Control: no-store).
 */
import { currentMonth } from '../cache/ledger.js';
import { BudgetExceededError, NetworkError } from '../errors.js';
import { PROXY_KEY_REFUSED_CODE } from '../http/failures.js';
import { SHARED_STATE_RETRY_AFTER_S } from '../config/time-limits.js';
import { SharedStateDownError } from './shared-state.js';

export type Outcome = 'hit' | 'miss' | 'revalidated' | 'coalesced' | 'stale';

export interface ProxyAnswer {
  status: number;
  /** Lower-case names; Content-Length (and Age, below) set when sent. Shared by the answers of one stored entry: never changed. */
  headers: Readonly<Record<string, string>>;
  /** The Age of an answer from the store, apart from its shared headers. */
  age?: string;
  body: Buffer;
  outcome: Outcome;
  /** A JSON answer of the service (a record or a list): what answer-writer.ts may cut for a plan. */
  serviceJson: boolean;
}

/** `code`: the proxy's own (bad_gateway, gateway_timeout, proxy_budget_exhausted, upstream_rate_limited) or the catalogue server's. */
export function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}): ProxyAnswer {
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify({ error: { code, message } })),
    outcome: 'miss',
    serviceJson: false,
  };
}

/**
 * 502 when the upstream refused the proxy's own key (401/403): the client's key is fine, so it is
 * no auth error of the client's, and no retry will cure it; the code tells the CLI so (it prints
 * the message and does not retry), the message says whose key and who must act.
 */
export function keyRefusedAnswer(status: number): ProxyAnswer {
  return errorAnswer(502, PROXY_KEY_REFUSED_CODE, `The upstream service refused the proxy's upstream key (${status}); whoever runs the proxy must replace it.`);
}

/** The upstream was not asked (the budget is spent) or did not answer; `unstored` says what the client misses (`, and …`). Anything else is thrown again. */
export function unreachableAnswer(err: unknown, unstored: string): ProxyAnswer {
  if (err instanceof BudgetExceededError) return budgetAnswer(err);
  if (err instanceof SharedStateDownError) return sharedStateDownAnswer(unstored);
  if (err instanceof NetworkError && err.code === 'timeout')
    return errorAnswer(504, 'gateway_timeout', `The upstream service did not answer in time${unstored}.`);
  if (err instanceof NetworkError) return errorAnswer(502, 'bad_gateway', `The upstream service cannot be reached${unstored}.`);
  throw err;
}

/** 503 for a miss while the shared state is down: without it the budget cannot be checked, so nothing is sent upstream. */
export function sharedStateDownAnswer(unstored = ''): ProxyAnswer {
  const message = `The proxy's shared state (Redis) is unavailable, so it cannot check the team's budget${unstored}; try again shortly.`;
  return errorAnswer(503, 'shared_state_unavailable', message, { 'retry-after': String(SHARED_STATE_RETRY_AFTER_S) });
}

/** The upstream's 429 to the proxy, passed on with its Retry-After when it gave one. */
export function rateLimitedAnswer(retryAfter?: string): ProxyAnswer {
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
  return errorAnswer(429, 'upstream_rate_limited', 'The upstream service is rate limiting the proxy; try again later.', headers);
}

/** The first instant of the next calendar month, UTC: when the ledger's count starts again. */
export function nextMonthStart(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/**
 * 429 for a miss that would pass the proxy's monthly budget: Retry-After to the start of next
 * month (the CLI gives up at once on a wait that long, exit 5), and a body saying whose budget
 * it is, which the CLI quotes.
 */
export function budgetAnswer(usage: { requests: number; budget: number }, now = Date.now()): ProxyAnswer {
  const reset = nextMonthStart(now);
  const seconds = Math.max(1, Math.ceil((reset - now) / 1000));
  const message =
    `The proxy's monthly budget of ${usage.budget} upstream requests is spent for ${currentMonth(now)} ` +
    `(${usage.requests} sent); answers it has stored still work, and the budget starts again on ${new Date(reset).toISOString().slice(0, 10)}.`;
  return errorAnswer(429, 'proxy_budget_exhausted', message, { 'retry-after': String(seconds) });
}
