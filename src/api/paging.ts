/**
 * The paging iterator (docs/design.md "Decisions for the interface's gaps"). The interface
 * does not say what a cursor is, so after each page the next cursor is the one the server
 * gave (pagination.next, then after, nextCursor, endCursor), else the last item's id;
 * `before` walks the other way (prev, before, previousCursor, startCursor, else the first
 * id). It stops on an empty page, a short page, `total` reached, `max` reached, or a
 * cursor seen before — never an endless loop against a misbehaving server.
 */
import type { ExerciseSummary, ListResponse } from '../catalogue/types.js';

export type PageCursor = { after?: string; before?: string };

const FORWARD_NAMES = ['next', 'after', 'nextCursor', 'endCursor'] as const;
const BACKWARD_NAMES = ['prev', 'before', 'previousCursor', 'startCursor'] as const;

/**
 * The cursor for the page after (or before) this one. `null` when the server said there
 * is none (an explicit null cursor), undefined when it gave no cursor and no id to fall back on.
 */
export function nextCursor(page: ListResponse, direction: 'after' | 'before'): string | null | undefined {
  const pagination = page.pagination as Record<string, unknown>;
  const names = direction === 'after' ? FORWARD_NAMES : BACKWARD_NAMES;
  for (const name of names) {
    const value = pagination[name];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  // Our server sends `next: null` at the end: the server's own word beats the fallback.
  if (names.some((name) => name in pagination && pagination[name] === null)) return null;
  const items = page.exercises;
  const edge = direction === 'after' ? items[items.length - 1] : items[0];
  return edge?.id;
}

export interface PaginateOptions {
  limit: number;
  after?: string;
  before?: string;
  /** Stop after this many items. */
  max?: number;
}

/**
 * The pages of a list, each as the items to use (the last one cut at `max`), following
 * the cursors as described above. Consumers that write output take a page at a time: one
 * write per page rather than per item.
 */
export async function* paginatePages(
  fetchPage: (cursor: PageCursor) => Promise<ListResponse>,
  options: PaginateOptions,
): AsyncIterable<ExerciseSummary[]> {
  const direction = options.before !== undefined ? 'before' : 'after';
  let cursor = direction === 'before' ? options.before : options.after;
  const seen = new Set<string>();
  if (cursor !== undefined) seen.add(cursor);
  let received = 0;
  let yielded = 0;

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
    if (items.length === 0 || items.length < options.limit) return;
    if (typeof page.pagination.total === 'number' && received >= page.pagination.total) return;
    const next = nextCursor(page, direction);
    if (next === null || next === undefined || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}

/** The items of every page, one by one (see paginatePages). */
export async function* paginate(
  fetchPage: (cursor: PageCursor) => Promise<ListResponse>,
  options: PaginateOptions,
): AsyncIterable<ExerciseSummary> {
  for await (const items of paginatePages(fetchPage, options)) yield* items;
}
