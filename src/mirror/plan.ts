/**
 * What a mirror run will ask for, decided before any record request: the records it lacks (all with
 * --refresh) and per language the translations it lacks; an answer from another service or plan counts as lacking.
 */
import { LIMIT_MAX } from '../defaults.js';
import { type Fetched, staleKey } from './work-file.js';

/** The listing asks for the largest page: the fewest requests. */
export const LISTING_PAGE_SIZE = LIMIT_MAX;

export interface MirrorPlan {
  records: string[];
  localised: Array<[string, string]>;
  requests: number;
}

export function listingCost(count: number): number {
  return Math.max(1, Math.ceil(count / LISTING_PAGE_SIZE));
}

export function planMirror(ids: readonly string[], fetched: Fetched, langs: readonly string[], refresh: boolean): MirrorPlan {
  const records = refresh ? [...ids] : ids.filter((id) => !fetched.records.has(id) || fetched.stale.has(id));
  const localised: Array<[string, string]> = [];
  for (const id of ids) {
    for (const lang of langs) {
      if (refresh || !fetched.langs.get(id)?.has(lang) || fetched.stale.has(staleKey(id, lang))) localised.push([id, lang]);
    }
  }
  return { records, localised, requests: records.length + localised.length };
}
