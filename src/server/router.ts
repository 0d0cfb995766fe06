/**
 * Routes one request to its endpoint (spec §4). Paths are split on `/` before any
 * percent-decoding, so an exercise name holding an encoded slash (`90%2F90%20Hip%20Switch`)
 * stays one segment, and an encoded slash can never climb directories in a media path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalogue } from '../catalogue/load.js';
import type { RecordIndex } from './record-index.js';
import type { CatalogueEntry } from '../catalogue/types.js';
import { parseQueryFilter, matchesFilter, singleParam } from './filters.js';
import { HttpError, notFound, sendCacheableJson } from './http-error.js';
import type { MediaFolder } from '../catalogue/media.js';
import { resolveMediaFile, sendMediaFile } from './media.js';
import { parsePageRequest, selectPage } from './paging.js';
import { type Plan, listLanguage, recordLanguage, toRecord, toSummary } from './records.js';

export interface RouterOptions {
  /** The whole catalogue: called only when an answer needs more than one record. */
  catalogue: () => Catalogue;
  /** Single records without the whole catalogue (an in-process run: record-index.ts), when kept. */
  records?: RecordIndex;
  keys: Readonly<Record<string, Plan>>;
  cursors: boolean;
  /** false: answers carry no ETag (see sendCacheableJson). */
  etags: boolean;
}

export const ALLOWED_METHODS = 'GET, HEAD';

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

function planFor(req: IncomingMessage, keys: Readonly<Record<string, Plan>>): Plan {
  const key = req.headers['x-api-key'];
  if (key === undefined || key === '') {
    throw new HttpError(401, 'unauthorized', 'An API key is required in the X-API-Key header.');
  }
  const value = Array.isArray(key) ? key[0] : key;
  const plan = value !== undefined && Object.hasOwn(keys, value) ? keys[value] : undefined;
  if (!plan) throw new HttpError(401, 'unauthorized', 'The API key is not valid.');
  return plan;
}

export async function route(req: IncomingMessage, res: ServerResponse, options: RouterOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new HttpError(405, 'method_not_allowed', `Method ${req.method ?? ''} is not allowed; this service is read-only.`, undefined, {
      Allow: ALLOWED_METHODS,
    });
  }
  const { segments, query } = parseTarget(req.url ?? '/');
  const plan = planFor(req, options.keys);
  const params = new URLSearchParams(query);
  const [first, second, third, fourth] = segments;

  if (first === 'exercise' && segments.length === 2 && second !== undefined) {
    const lang = singleParam(params, 'lang');
    if (second === 'query') {
      const filter = parseQueryFilter(params, lang);
      const catalogue = options.catalogue();
      const page = parsePageRequest(params, catalogue);
      const positions: number[] = [];
      catalogue.entries.forEach((e, i) => {
        if (matchesFilter(e, filter)) positions.push(i);
      });
      return sendList(req, res, options, positions, page, lang, plan);
    }
    if (second === 'exerciseIds') {
      const catalogue = options.catalogue();
      const page = parsePageRequest(params, catalogue);
      const positions = catalogue.entries.map((_, i) => i);
      return sendList(req, res, options, positions, page, lang, plan);
    }
    // The record index answers alone when it can tell (null: there is none); else the whole catalogue does.
    const indexed = options.records?.entry(second);
    const entry = indexed === undefined ? findEntry(options.catalogue(), second) : indexed;
    if (!entry) throw notFound(`No exercise with id or name "${second.slice(0, 200)}".`);
    return sendCacheableJson(req, res, toRecord(entry, lang, plan), { headers: { 'Content-Language': recordLanguage(entry, lang) }, etag: options.etags });
  }

  if ((first === 'images' || first === 'videos') && segments.length === 4 && third === 'premium') {
    if (plan !== 'premium') {
      throw new HttpError(403, 'forbidden', 'Premium images and videos need a premium plan.');
    }
    const kind: MediaFolder = first;
    const id = second ?? '';
    const { records } = options;
    const known = records ? records.hasId(id) : options.catalogue().indexById.has(id);
    const dir = records ? records.dir : options.catalogue().dir;
    const file = known ? await resolveMediaFile(dir, kind, id, fourth ?? '') : undefined;
    if (!file) throw notFound('No such media file.');
    return sendMediaFile(req, res, file, kind);
  }

  throw notFound('No such path.');
}

/** The record with this id, else the first in listing order with this name in any case. */
function findEntry(catalogue: Catalogue, idOrName: string): CatalogueEntry | undefined {
  const index = catalogue.indexById.get(idOrName);
  return index !== undefined ? catalogue.entries[index] : catalogue.byLowerName.get(idOrName.toLowerCase());
}

function sendList(
  req: IncomingMessage,
  res: ServerResponse,
  options: RouterOptions,
  positions: number[],
  request: ReturnType<typeof parsePageRequest>,
  lang: string | undefined,
  plan: Plan,
): void {
  const catalogue = options.catalogue();
  const { page, pagination } = selectPage(catalogue, positions, request, options.cursors);
  const exercises = page.map((i) => toSummary(catalogue.entries[i]!, lang, plan));
  sendCacheableJson(req, res, { exercises, pagination }, { headers: { 'Content-Language': listLanguage(catalogue.languages, lang) }, etag: options.etags });
}
