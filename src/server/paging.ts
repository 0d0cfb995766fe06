/**
 * Paging of the list endpoints (docs/design.md, "Decisions for the interface's gaps"): results in
 * the catalogue's stable order; `after`/`before` take this server's opaque cursor or a bare
 * exercise id; `before` answers the page just before; `pagination` = {total, next, prev}.
 *
 * A cursor names a boundary exercise, not an offset, so it stays valid under any filter:
 * `after=X` lists what sorts after X, `before=X` what sorts before it.
 */
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../defaults.js';
import type { Pagination } from '../catalogue/types.js';
import type { Catalogue } from '../catalogue/load.js';
import { badParameter } from './http-error.js';
import { singleParam } from './filters.js';

const CURSOR_PREFIX = 'c1:';

export function encodeCursor(id: string): string {
  return Buffer.from(CURSOR_PREFIX + id, 'utf8').toString('base64url');
}

/** Catalogue position named by a cursor or a bare id; undefined if it names nothing. */
function cursorPosition(catalogue: Catalogue, value: string): number | undefined {
  const bare = catalogue.indexById.get(value);
  if (bare !== undefined) return bare;
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const decoded = Buffer.from(value, 'base64url').toString('utf8');
  if (!decoded.startsWith(CURSOR_PREFIX)) return undefined;
  return catalogue.indexById.get(decoded.slice(CURSOR_PREFIX.length));
}

export interface PageRequest {
  limit: number;
  after?: number;
  before?: number;
}

export function parsePageRequest(params: URLSearchParams, catalogue: Catalogue): PageRequest {
  const rawLimit = singleParam(params, 'limit');
  let limit = LIMIT_DEFAULT;
  if (rawLimit !== undefined) {
    const n = /^\d{1,9}$/.test(rawLimit.trim()) ? Number(rawLimit.trim()) : NaN;
    if (!Number.isInteger(n) || n < LIMIT_MIN || n > LIMIT_MAX) {
      throw badParameter('limit', `limit must be a whole number from ${LIMIT_MIN} to ${LIMIT_MAX}; got "${rawLimit}".`);
    }
    limit = n;
  }
  const after = singleParam(params, 'after');
  const before = singleParam(params, 'before');
  if (after !== undefined && before !== undefined) {
    throw badParameter('before', 'Give after or before, not both.');
  }
  const position = (name: 'after' | 'before', value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const pos = cursorPosition(catalogue, value);
    if (pos === undefined) throw badParameter(name, `Unknown ${name} cursor "${value.slice(0, 100)}": pass a cursor from pagination or an exercise id.`);
    return pos;
  };
  return { limit, after: position('after', after), before: position('before', before) };
}

/** First index in the ascending `positions` whose value is greater than `pos`. */
function firstAbove(positions: readonly number[], pos: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((positions[mid] as number) <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in `positions` whose value is at least `pos`. */
function firstAtLeast(positions: readonly number[], pos: number): number {
  return firstAbove(positions, pos - 1);
}

/**
 * One page of `positions` (catalogue positions of the matching entries, ascending).
 * @param cursors false leaves out next/prev, like a service that sends no cursors
 */
export function selectPage(
  catalogue: Catalogue,
  positions: readonly number[],
  request: PageRequest,
  cursors: boolean,
): { page: number[]; pagination: Pagination } {
  let start: number;
  let end: number;
  if (request.before !== undefined) {
    end = firstAtLeast(positions, request.before);
    start = Math.max(0, end - request.limit);
  } else {
    start = request.after !== undefined ? firstAbove(positions, request.after) : 0;
    end = Math.min(positions.length, start + request.limit);
  }
  const page = positions.slice(start, end);
  const pagination: Pagination = { total: positions.length };
  if (cursors) {
    const idAt = (i: number) => (catalogue.entries[positions[i] as number] as { id: string }).id;
    pagination.next = end < positions.length && page.length > 0 ? encodeCursor(idAt(end - 1)) : null;
    pagination.prev = start > 0 && page.length > 0 ? encodeCursor(idAt(start)) : null;
  }
  return { page, pagination };
}
