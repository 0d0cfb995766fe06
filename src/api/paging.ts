/**
 * The paging iterator: the next cursor is the server's, else the last item's id. It stops on an empty or
 * short page, `total` or `max` reached, or a cursor seen before (never an endless loop); a listing that
 * did not end as it should is told to `onIncomplete` (the commands warn and exit 7).
 */
import type { ExerciseSummary, ListResponse } from '../catalogue/types.js';
import { escapeUnsafe, shorten } from '../util/text.js';

/** Items accepted past the first page's `total` (the catalogue may grow while listed): a tenth, at least 100. */
export function listingMargin(total: number): number {
  return Math.max(100, Math.ceil(total / 10));
}
/** No listing is followed past this many items, whatever its `total` says. */
export const LISTING_MAX_ITEMS = 200_000;

export interface ListingProblem {
  reason: 'loop' | 'no-cursor' | 'short' | 'past-total';
  /** One sentence for people (server text escaped). */
  message: string;
  received: number;
}

export type PageCursor = { after?: string; before?: string };

const FORWARD_NAMES = ['next', 'after', 'nextCursor', 'endCursor'] as const;
const BACKWARD_NAMES = ['prev', 'before', 'previousCursor', 'startCursor'] as const;

/** The cursor for the page after (or before) this one: `null` when the server said there is none, undefined when there is nothing to use. */
export function nextCursor(page: ListResponse, direction: 'after' | 'before'): string | null | undefined {
  const pagination = page.pagination as Record<string, unknown>;
  const names = direction === 'after' ? FORWARD_NAMES : BACKWARD_NAMES;
  for (const name of names) {
    const value = pagination[name];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  // The server's own word beats the fallback.
  if (names.some((name) => name in pagination && pagination[name] === null)) return null;
  const items = page.exercises;
  const edge = direction === 'after' ? items[items.length - 1] : items[0];
  return edge?.id;
}

export interface PaginateOptions {
  limit: number;
  after?: string;
  before?: string;
  max?: number;
  /** Told once when the listing stopped for one of the reasons above. */
  onIncomplete?: (problem: ListingProblem) => void;
  /** Items after which a listing is stopped; LISTING_MAX_ITEMS when absent. */
  maxItems?: number;
}

const quoted = (cursor: string): string => JSON.stringify(shorten(escapeUnsafe(cursor), 60));

/** The pages of a list, each as the items to use (the last cut at `max`): consumers write a page at a time. */
export async function* paginatePages(fetchPage: (cursor: PageCursor) => Promise<ListResponse>, options: PaginateOptions): AsyncIterable<ExerciseSummary[]> {
  const direction = options.before !== undefined ? 'before' : 'after';
  let cursor = direction === 'before' ? options.before : options.after;
  // Only a listing from the start can be held to its `total` (a cursor starts part way).
  const fromStart = cursor === undefined;
  const seen = new Set<string>();
  if (cursor !== undefined) seen.add(cursor);
  let received = 0;
  let yielded = 0;
  let firstTotal: number | undefined;
  const cap = options.maxItems ?? LISTING_MAX_ITEMS;
  const incomplete = (reason: ListingProblem['reason'], message: string): void => options.onIncomplete?.({ reason, message, received });

  for (;;) {
    const page = await fetchPage(cursor === undefined ? {} : { [direction]: cursor });
    const items = page.exercises;
    const room = options.max === undefined ? items.length : Math.max(0, options.max - yielded);
    const batch = items.length <= room ? items : items.slice(0, room);
    if (batch.length > 0) {
      yield batch;
      yielded += batch.length;
    }
    if (options.max !== undefined && yielded >= options.max) return;
    received += items.length;
    const total = typeof page.pagination.total === 'number' ? page.pagination.total : undefined;
    firstTotal ??= total;
    const ended = items.length === 0 || items.length < options.limit || (total !== undefined && received >= total);
    const next = ended ? null : nextCursor(page, direction);
    if (next === null) {
      if (fromStart && total !== undefined && received < total) {
        incomplete('short', `the listing ended after ${received} items although it announced ${total}`);
      }
      return;
    }
    if (next === undefined) {
      incomplete('no-cursor', `a full page of the listing came with no cursor to the next one, after ${received} items`);
      return;
    }
    if (seen.has(next)) {
      incomplete('loop', `the listing gave the cursor ${quoted(next)} a second time (a loop), after ${received} items`);
      return;
    }
    const bound = Math.min(cap, firstTotal === undefined ? cap : firstTotal + listingMargin(firstTotal));
    if (received >= bound) {
      incomplete(
        'past-total',
        `the listing went on past ${received} items${firstTotal !== undefined ? ` although it announced ${firstTotal}` : ''}; stopped there`,
      );
      return;
    }
    seen.add(next);
    cursor = next;
  }
}

/** The items of every page, one by one. */
export async function* paginate(fetchPage: (cursor: PageCursor) => Promise<ListResponse>, options: PaginateOptions): AsyncIterable<ExerciseSummary> {
  for await (const items of paginatePages(fetchPage, options)) yield* items;
}
