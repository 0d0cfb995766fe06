/**
 * The mirror's listing: every id the service lists, a page of 25 at a time, through the paging
 * guards (api/paging.ts: a loop, a missing cursor, fewer ids than `total`, a listing that never
 * ends), and the copy of it kept in the work directory for --dry-run and for the next run: when
 * a listing stops early, the ids of the previous one are kept rather than dropped.
 */
import { readFileSync, rmSync } from 'node:fs';
import type { ApiClient } from '../api/client.js';
import { type ListingProblem, paginatePages } from '../api/paging.js';
import { replaceFileSync } from '../util/write-all.js';
import { lstatOrUndefined, refuseLinkAt } from '../util/real-dir.js';
import { LISTING_PAGE_SIZE } from './plan.js';

export interface Listing {
  /** Ids to mirror, in listing order, each once. */
  ids: string[];
  /** Listed ids no file or URL can hold (`.`, `..`, empty, control characters): skipped and counted. */
  unstorable: string[];
  /** The plan the listing shows: summaries carry the premium fields only for a premium plan (spec §2.2). */
  plan: 'premium' | 'free';
  /** Why the listing stopped before its end, when it did. */
  problem?: ListingProblem;
}

/** Why an id cannot be stored in a catalogue, or undefined when it can. */
export function unstorableReason(id: string): string | undefined {
  if (id === '') return 'an empty id';
  if (id === '.' || id === '..') return `the id "${id}" names a directory, not an exercise`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'an id with control characters';
  return undefined;
}

export async function fetchListing(api: ApiClient, options: { maxItems?: number } = {}): Promise<Listing> {
  const listing: Listing = { ids: [], unstorable: [], plan: 'free' };
  const seen = new Set<string>();
  const pages = paginatePages((cursor) => api.exerciseIds({ ...cursor, limit: LISTING_PAGE_SIZE }), {
    limit: LISTING_PAGE_SIZE,
    onIncomplete: (p) => (listing.problem = p),
    ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}),
  });
  for await (const page of pages) {
    for (const item of page) {
      if (Array.isArray(item.premiumImages) || Array.isArray(item.premiumVideos)) listing.plan = 'premium';
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      if (unstorableReason(item.id) !== undefined) listing.unstorable.push(item.id);
      else listing.ids.push(item.id);
    }
  }
  return listing;
}

export function readStoredListing(path: string): string[] | undefined {
  try {
    refuseLinkAt(path);
    const ids = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : undefined;
  } catch {
    return undefined;
  }
}

export function storeListing(path: string, ids: readonly string[]): void {
  replaceFileSync(path, [JSON.stringify(ids)]);
}

/**
 * The mark a dry run leaves when the listing it fetched went into the response cache: the next
 * real run reads its listing through the cache once (free while the answers are fresh), then
 * removes the mark, so a later run lists anew as a mirror always does.
 */
export function markListingCached(path: string): void {
  replaceFileSync(path, [`${new Date().toISOString()}\n`]);
}

/** Whether a dry run left the mark (see markListingCached); it is removed either way. */
export function takeListingCachedMark(path: string): boolean {
  // Only a plain file counts (never one a link stands in for).
  const marked = lstatOrUndefined(path)?.isFile() === true;
  if (marked) rmSync(path, { force: true });
  return marked;
}

/** The listed ids, then those of the previous listing it lacks: what a listing cut short keeps. */
export function withPrevious(ids: readonly string[], previous: readonly string[] | undefined): string[] {
  if (!previous) return [...ids];
  const have = new Set(ids);
  return [...ids, ...previous.filter((id) => !have.has(id) && unstorableReason(id) === undefined)];
}
