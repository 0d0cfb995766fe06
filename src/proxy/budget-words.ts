/**
 * The team proxy's budget as its clients see it: the X-RateLimit-* headers every answer carries, marked
 * as the proxy's, said in words by `exercises quota` (used, limit, left, the day it starts again).
 */
import { type RateLimitSeen, currentMonth } from '../cache/ledger.js';
import { plural } from '../util/text.js';

export const PROXY_RATE_RESOURCE_HEADER = 'x-ratelimit-resource';
/** The value a proxy sends, so a client can tell its budget from the service's own limit. */
export const PROXY_RATE_RESOURCE = 'exercises-proxy';

export interface ProxyBudget {
  month: string;
  used: number;
  limit: number | null;
  remaining: number | null;
  /** When the count starts again, `YYYY-MM-DD` (UTC). */
  resetsOn: string | null;
  seenAt: string;
}

/** The proxy's budget from the last rate-limit headers seen, or undefined when they are not a proxy's. */
export function proxyBudget(seen: RateLimitSeen | null | undefined): ProxyBudget | undefined {
  if (!seen || seen.headers[PROXY_RATE_RESOURCE_HEADER] !== PROXY_RATE_RESOURCE) return undefined;
  const used = Number(seen.headers['x-ratelimit-used']);
  // The proxy sends the reset as epoch seconds (the start of next month).
  const resetsOn = seen.reset !== undefined ? new Date(seen.reset * 1000).toISOString().slice(0, 10) : null;
  return {
    month: currentMonth(seen.seenAt),
    used: Number.isSafeInteger(used) ? used : 0,
    limit: seen.limit ?? null,
    remaining: seen.limit === undefined ? null : (seen.remaining ?? 0),
    resetsOn,
    seenAt: new Date(seen.seenAt).toISOString(),
  };
}

/** `The proxy's budget: 2 of 100 upstream requests used in 2026-11, 98 left; it starts again on 2026-12-01 (as of 2026-11-26 15:40 UTC).` */
export function proxyBudgetLine(budget: ProxyBudget): string {
  const asOf = `(as of ${budget.seenAt.slice(0, 16).replace('T', ' ')} UTC)`;
  const again = budget.resetsOn ? `; it starts again on ${budget.resetsOn}` : '';
  if (budget.limit === null) {
    return `The proxy has no budget of its own: ${plural(budget.used, 'upstream request')} sent in ${budget.month}${again} ${asOf}.`;
  }
  return `The proxy's budget: ${budget.used} of ${budget.limit} upstream requests used in ${budget.month}, ${budget.remaining} left${again} ${asOf}.`;
}
