/**
 * What a mirror run will ask for, decided from the listing and the work file before any
 * record request: the records it lacks (all of them with --refresh) and, per language, the
 * records in that language it lacks. An answer fetched from another service or under another
 * plan (Fetched.stale) counts as lacking. Media cost one request per file missing on disk, known
 * only once the records are in.
 */
import { LIMIT_MAX } from '../defaults.js';
import { type Fetched, staleKey } from './work-file.js';

/** The listing asks for the spec's largest page (§8): the fewest requests. */
export const LISTING_PAGE_SIZE = LIMIT_MAX;

export interface MirrorPlan {
  /** Ids whose record is to be fetched. */
  records: string[];
  /** [id, lang] pairs to be fetched. */
  localised: Array<[string, string]>;
  /** The requests for both. */
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
