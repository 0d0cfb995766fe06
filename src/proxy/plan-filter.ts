/**
 * A client's plan is never more than the upstream's, and a free client sees no premium media
 * lists whatever the upstream plan: the shared answer (the upstream account's) is cut for a
 * free client at answer time — records and list items lose premiumImages and premiumVideos,
 * as the project's server leaves them out for a free key — with an ETag of its own, since the
 * bytes differ. A premium client gets the upstream's bytes untouched.
 */
import { createHash } from 'node:crypto';
import type { Plan } from '../server/records.js';
import type { ProxyAnswer } from './answers.js';

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

/**
 * A body as a free client sees it, and its ETag; null when it has nothing to cut. With the
 * headers last made for it (`from` the answer headers they were made from), so that its hits
 * share one headers object as a premium client's do.
 */
type FreeCut = { body: Buffer; etag: string; from?: object; headers?: Readonly<Record<string, string>> } | null;

/**
 * Cuts made, by the upstream body they were made from: a hot answer (hot-answers.ts) keeps its
 * body, so a free client's hit parses nothing; a body no longer held takes its cut with it.
 */
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
  return { body: Buffer.from(text), etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
}

/** The answer as `plan` may see it. */
export function forPlan(answer: ProxyAnswer, plan: Plan): ProxyAnswer {
  if (plan === 'premium' || answer.status !== 200 || !answer.serviceJson) return answer;
  let cut = cuts.get(answer.body);
  if (cut === undefined) {
    cut = freeCut(answer.body);
    cuts.set(answer.body, cut);
  }
  if (cut === null) return answer;
  if (cut.from !== answer.headers || !cut.headers) [cut.from, cut.headers] = [answer.headers, { ...answer.headers, etag: cut.etag }];
  return { ...answer, headers: cut.headers, body: cut.body };
}
