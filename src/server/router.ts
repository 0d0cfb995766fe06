/**
 * Routes one request to its endpoint (spec §4). Paths are split on `/` before any
 * percent-decoding, so an exercise name holding an encoded slash (`90%2F90%20Hip%20Switch`)
 * stays one segment, and an encoded slash can never climb directories in a media path.
 *
 * Paging of the list endpoints (docs/design.md, "Decisions for the interface's gaps"): results
 * in the catalogue's stable order; `after`/`before` take this server's opaque cursor or a bare
 * exercise id; `before` answers the page just before; `pagination` = {total, next, prev}. A
 * cursor names a boundary exercise, not an offset, so it stays valid under any filter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalogue } from '../catalogue/load.js';
import type { RecordIndex } from './record-index.js';
import type { CatalogueEntry, Pagination } from '../catalogue/types.js';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../defaults.js';
import { parseQueryFilter, matchesFilter, singleParam } from './filters.js';
import { HttpError, badParameter, firstValue, notFound, sendCacheableJson } from './http-error.js';
import { resolveMediaFile, sendMediaFile } from './media.js';
import { type Plan, listLanguage, recordLanguage, toRecord, toSummary } from './records.js';

export interface RouterOptions {
  /** The whole catalogue: called only when an answer needs more than one record. */
  catalogue: () => Catalogue;
  /** Single records without the whole catalogue (an in-process run: record-index.ts), when one is usable. */
  records?: () => RecordIndex | undefined;
  keys: Readonly<Record<string, Plan>>;
  cursors: boolean;
  /** false: answers carry no ETag (see sendCacheableJson). */
  etags: boolean;
}

/** Longest request target answered; longer ones get 414 before any parsing. */
const MAX_URL_LENGTH = 8192;

/** What every request meets first, the catalogue server's and the proxy's alike: a target not too long (414), then a read-only method (405). */
export function checkRequest(req: IncomingMessage, target = req.url ?? '/'): void {
  if (target.length > MAX_URL_LENGTH) throw new HttpError(414, 'bad_request', 'The request URL is too long.');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} is not allowed; this service is read-only.`, undefined, { Allow: 'GET, HEAD' });
  }
}

/** What `keys` hold for the key a request sent: 401 without a key, or with one not among them. */
export function clientOf<T>(key: string | undefined, keys: Readonly<Record<string, T>>): T {
  if (key === undefined || key === '') throw new HttpError(401, 'unauthorized', 'An API key is required in the X-API-Key header.');
  if (!Object.hasOwn(keys, key)) throw new HttpError(401, 'unauthorized', 'The API key is not valid.');
  return keys[key]!;
}

/** Splits the request target into decoded path segments and the raw query string. */
export function parseTarget(rawUrl: string): { segments: string[]; path: string; query: string } {
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const query = q === -1 ? '' : rawUrl.slice(q + 1);
  // Only origin-form targets ("/..."), never "*" or an absolute URL.
  if (!path.startsWith('/')) throw notFound(`No such path.`);
  const segments = path
    .slice(1)
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw new HttpError(400, 'bad_request', 'The request path has malformed percent-encoding.');
      }
    });
  return { segments, path, query };
}

/** Answers a request that passed checkRequest. */
export async function route(req: IncomingMessage, res: ServerResponse, options: RouterOptions): Promise<void> {
  const { segments, query } = parseTarget(req.url ?? '/');
  const plan = clientOf(firstValue(req.headers['x-api-key']), options.keys);
  const params = new URLSearchParams(query);
  const [first, second, third, fourth] = segments;

  if (first === 'exercise' && segments.length === 2 && second !== undefined) {
    const lang = singleParam(params, 'lang');
    if (second === 'query' || second === 'exerciseIds') {
      // exerciseIds lists every record; query those its filters match.
      const filter = second === 'query' ? parseQueryFilter(params, lang) : undefined;
      const catalogue = options.catalogue();
      const request = parsePageRequest(params, catalogue);
      // Without a filter every position matches: none is listed, so a page costs its own length.
      const positions: number[] | undefined = filter ? [] : undefined;
      if (filter) catalogue.entries.forEach((e, i) => matchesFilter(e, filter) && positions!.push(i));
      const { page, pagination } = selectPage(catalogue, positions, request, options.cursors);
      const exercises = page.map((i) => toSummary(catalogue.entries[i]!, lang, plan));
      const headers = { 'Content-Language': listLanguage(catalogue.languages, lang) };
      return sendCacheableJson(req, res, { exercises, pagination }, headers, options.etags);
    }
    // The record index answers alone when it can tell (null: there is none); else the whole catalogue does.
    const indexed = options.records?.()?.entry(second);
    const entry = indexed === undefined ? wholeRecord(options.catalogue(), second) : indexed;
    if (!entry) throw notFound(`No exercise with id or name "${second.slice(0, 200)}".`);
    return sendCacheableJson(req, res, toRecord(entry, lang, plan), { 'Content-Language': recordLanguage(entry, lang) }, options.etags);
  }

  if ((first === 'images' || first === 'videos') && segments.length === 4 && third === 'premium') {
    if (plan !== 'premium') throw new HttpError(403, 'forbidden', 'Premium images and videos need a premium plan.');
    const id = second ?? '';
    const records = options.records?.();
    const known = records ? records.hasId(id) : options.catalogue().indexById.has(id);
    const dir = records ? records.dir : options.catalogue().dir;
    const file = known ? await resolveMediaFile(dir, first, id, fourth ?? '') : undefined;
    if (!file) throw notFound('No such media file.');
    return sendMediaFile(req, res, file, first);
  }

  throw notFound('No such path.');
}

/** The record with this id, else the first in listing order with this name in any case. */
function wholeRecord(catalogue: Catalogue, idOrName: string): CatalogueEntry | undefined {
  const index = catalogue.indexById.get(idOrName);
  const listed = index !== undefined ? catalogue.entries[index] : catalogue.byLowerName.get(idOrName.toLowerCase());
  return listed && catalogue.record(listed);
}

const CURSOR_PREFIX = 'c1:';

function encodeCursor(id: string): string {
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

function parsePageRequest(params: URLSearchParams, catalogue: Catalogue) {
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
  if (after !== undefined && before !== undefined) throw badParameter('before', 'Give after or before, not both.');
  const position = (name: 'after' | 'before', value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const pos = cursorPosition(catalogue, value);
    if (pos === undefined) throw badParameter(name, `Unknown ${name} cursor "${value.slice(0, 100)}": pass a cursor from pagination or an exercise id.`);
    return pos;
  };
  return { limit, after: position('after', after), before: position('before', before) };
}

type PageRequest = ReturnType<typeof parsePageRequest>;

/**
 * One page of `positions` (catalogue positions of the matching entries, ascending; undefined: every entry).
 * @param cursors false leaves out next/prev, like a service that sends no cursors
 */
function selectPage(
  catalogue: Catalogue,
  positions: readonly number[] | undefined,
  request: PageRequest,
  cursors: boolean,
): { page: number[]; pagination: Pagination } {
  const count = positions?.length ?? catalogue.entries.length;
  const positionAt = (i: number): number => (positions ? positions[i]! : i);
  /** The first index whose position is greater than `pos` (a binary search: positions ascend). */
  const firstAbove = (pos: number): number => {
    let [low, high] = [0, count];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (positionAt(mid) > pos) high = mid;
      else low = mid + 1;
    }
    return low;
  };
  let start: number;
  let end: number;
  if (request.before !== undefined) {
    end = firstAbove(request.before - 1);
    start = Math.max(0, end - request.limit);
  } else {
    start = request.after !== undefined ? firstAbove(request.after) : 0;
    end = Math.min(count, start + request.limit);
  }
  const page = Array.from({ length: end - start }, (_, i) => positionAt(start + i));
  const pagination: Pagination = { total: count };
  if (cursors) {
    const idAt = (i: number) => catalogue.entries[positionAt(i)]!.id;
    pagination.next = end < count && page.length > 0 ? encodeCursor(idAt(end - 1)) : null;
    pagination.prev = start > 0 && page.length > 0 ? encodeCursor(idAt(start)) : null;
  }
  return { page, pagination };
}
