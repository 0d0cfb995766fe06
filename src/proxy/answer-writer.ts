/**
 * Sends a ProxyAnswer as the client's plan may see it (a free client's cut of premium fields, with an
 * ETag of its own), 304 to a matching If-None-Match, and always the month's upstream count as the
 * proxy's X-RateLimit-* headers. A hot answer's header objects are shared by its hits, one per plan.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LedgerUsage } from '../cache/ledger.js';
import { firstValue, ifNoneMatchHits, strongEtag } from '../server/http-error.js';
import type { Plan } from '../server/records.js';
import { type ProxyAnswer, nextMonthStart } from './answers.js';
import { PROXY_RATE_RESOURCE, PROXY_RATE_RESOURCE_HEADER } from './budget-words.js';

const PREMIUM_FIELDS = ['premiumImages', 'premiumVideos'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Removes the premium fields from `item`; whether it had any. */
function strip(item: unknown): boolean {
  if (!isObject(item)) return false;
  let had = false;
  for (const field of PREMIUM_FIELDS) {
    if (Object.hasOwn(item, field)) {
      delete item[field];
      had = true;
    }
  }
  return had;
}

/** A body as a free client sees it, and its ETag; null when it has nothing to cut. */
type FreeCut = { body: Buffer; etag: string } | null;

/** Cuts made, by the upstream body they came from: a free client's hit parses nothing; a body let go takes its cut with it. */
const cuts = new WeakMap<Buffer, FreeCut>();

function freeCut(original: Buffer): FreeCut {
  let body: unknown;
  try {
    body = JSON.parse(original.toString('utf8'));
  } catch {
    return null;
  }
  let changed = false;
  if (isObject(body) && Array.isArray(body.exercises)) {
    for (const item of body.exercises) if (strip(item)) changed = true;
  } else if (strip(body)) changed = true;
  if (!changed) return null;
  const text = JSON.stringify(body);
  return { body: Buffer.from(text), etag: strongEtag(text) };
}

/** What `plan` may not see of the answer cut away; null when it may see it all. */
function cutFor(answer: ProxyAnswer, plan: Plan): FreeCut {
  if (plan === 'premium' || answer.status !== 200 || !answer.serviceJson) return null;
  let cut = cuts.get(answer.body);
  if (cut === undefined) cuts.set(answer.body, (cut = freeCut(answer.body)));
  return cut;
}

/** The writer of answers for the proxy whose month's upstream usage `upstream.knownUsage` gives. */
export function answerWriter(upstream: { readonly knownUsage: LedgerUsage | undefined }) {
  let rate: { usage: LedgerUsage | undefined; until: number; headers: Record<string, string> } = { usage: undefined, until: 0, headers: {} };
  /** The usage as headers (and the limit with a budget), made again when the count or month changes. */
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
  // The headers sent with each answer, per plan (never changed once made).
  const sent = new WeakMap<object, Partial<Record<Plan, { age: string | undefined; rate: object; headers: Record<string, string> }>>>();

  return function send(req: IncomingMessage, res: ServerResponse, answer: ProxyAnswer, plan: Plan): void {
    // A media fill that failed after streaming began has already sent its headers: the connection is cut instead.
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const cut = cutFor(answer, plan);
    const etag = cut ? cut.etag : answer.headers.etag;
    const rate = rateHeaders();
    if (answer.status === 200 && ifNoneMatchHits(firstValue(req.headers['if-none-match']), etag)) {
      res.writeHead(304, etag === undefined ? rate : { etag, ...rate });
      res.end();
      return;
    }
    const body = cut ? cut.body : answer.body;
    let byPlan = sent.get(answer.headers);
    if (!byPlan) sent.set(answer.headers, (byPlan = {}));
    let made = byPlan[plan];
    if (made?.rate !== rate || made.age !== answer.age) {
      const headers = { ...answer.headers, ...(answer.age === undefined ? {} : { age: answer.age }), ...(cut ? { etag } : {}), ...rate };
      made = byPlan[plan] = { age: answer.age, rate, headers: { ...headers, 'content-length': String(body.length) } };
    }
    res.writeHead(answer.status, made.headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
