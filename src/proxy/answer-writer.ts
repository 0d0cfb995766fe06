/**
 * Sends a ProxyAnswer: as the client's plan may see it (plan-filter.ts), 304 to a matching
 * If-None-Match, and always with the month's upstream count as X-RateLimit-* headers (GitHub's
 * names, marked as the proxy's: budget-words.ts), which the CLI notes for `exercises quota`.
 * A hot answer's hits share their header objects: made again only when the answer's headers,
 * the rate figures or the month change, not per hit.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerUsage } from '../cache/ledger.js';
import type { Plan } from '../server/records.js';
import { type ProxyAnswer, nextMonthStart } from './answers.js';
import { PROXY_RATE_RESOURCE, PROXY_RATE_RESOURCE_HEADER } from './budget-words.js';
import { forPlan } from './plan-filter.js';

/** RFC 9110 If-None-Match against the ETag an answer carries (weak comparison). */
function notModified(req: IncomingMessage, etag: string | undefined): boolean {
  const asked = req.headers['if-none-match'];
  if (asked === undefined || etag === undefined) return false;
  const bare = etag.replace(/^W\//, '');
  return asked.trim() === '*' || asked.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** The writer of answers for the proxy whose month's upstream usage `upstream.knownUsage` gives. */
export function answerWriter(upstream: { readonly knownUsage: LedgerUsage | undefined }) {
  let rate: { usage: LedgerUsage | undefined; until: number; headers: Record<string, string> } = { usage: undefined, until: 0, headers: {} };
  /** The usage as headers, plus the limit when there is a budget: made again when the count or the month changes. */
  const rateHeaders = (): Record<string, string> => {
    const usage = upstream.knownUsage;
    const now = Date.now();
    if (usage === rate.usage && now < rate.until) return rate.headers;
    const reset = nextMonthStart(now);
    const headers: Record<string, string> = usage
      ? { [PROXY_RATE_RESOURCE_HEADER]: PROXY_RATE_RESOURCE, 'x-ratelimit-used': String(usage.requests), 'x-ratelimit-reset': String(reset / 1000) }
      : {};
    if (usage && usage.budget !== null) {
      headers['x-ratelimit-limit'] = String(usage.budget);
      headers['x-ratelimit-remaining'] = String(usage.remaining ?? 0);
    }
    rate = { usage, until: reset, headers };
    return headers;
  };
  // The headers each answer's headers were last sent with (never changed once made: Node only reads them).
  const sentHeaders = new WeakMap<object, { rate: object; length: number; headers: Record<string, string> }>();

  return function send(req: IncomingMessage, res: ServerResponse, answer: ProxyAnswer, plan: Plan): void {
    // A media fill that failed after streaming began has already sent its headers: the connection is cut instead.
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const shown = forPlan(answer, plan);
    const rate = rateHeaders();
    if (shown.status === 200 && notModified(req, shown.headers.etag)) {
      res.writeHead(304, { etag: shown.headers.etag!, ...rate });
      res.end();
      return;
    }
    let sent = sentHeaders.get(shown.headers);
    if (sent?.rate !== rate || sent.length !== shown.body.length) {
      sent = { rate, length: shown.body.length, headers: { ...shown.headers, ...rate, 'content-length': String(shown.body.length) } };
      sentHeaders.set(shown.headers, sent);
    }
    res.writeHead(shown.status, sent.headers);
    res.end(req.method === 'HEAD' ? undefined : shown.body);
  };
}
