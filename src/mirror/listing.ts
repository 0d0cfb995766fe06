/**
 * The mirror's listing: every id the service lists, through the paging guards, and its copy in the work
 * directory for --dry-run and the next run; a listing that stops early keeps the previous one's ids.
 */
import { readFileSync, rmSync } from 'node:fs';
import type { ApiClient } from '../api/client.js';
import { type ListingProblem, paginatePages } from '../api/paging.js';
import { replaceFileSync } from '../util/write-all.js';
import { lstatOrUndefined, refuseLinkAt } from '../util/real-dir.js';
import { LISTING_PAGE_SIZE } from './plan.js';

export interface Listing {
  ids: string[];
  /** Listed ids no file or URL can hold: skipped and counted. */
  unstorable: string[];
  /** Summaries carry the premium fields only for a premium plan. */
  plan: 'premium' | 'free';
  problem?: ListingProblem;
}

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

/** The mark of a dry run whose listing went into the response cache: the next real run reads it from there once. */
export function markListingCached(path: string): void {
  replaceFileSync(path, [`${new Date().toISOString()}\n`]);
}

/** Whether a dry run left the mark; removed either way. */
export function takeListingCachedMark(path: string): boolean {
  // Only a plain file counts.
  const marked = lstatOrUndefined(path)?.isFile() === true;
  if (marked) rmSync(path, { force: true });
  return marked;
}

/** The listed ids, then those of the previous listing it lacks. */
export function withPrevious(ids: readonly string[], previous: readonly string[] | undefined): string[] {
  if (!previous) return [...ids];
  const have = new Set(ids);
  return [...ids, ...previous.filter((id) => !have.has(id) && unstorableReason(id) === undefined)];
}
