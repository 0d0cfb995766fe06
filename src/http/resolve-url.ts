/**
 * URLs under a base URL, without any HTTP code: the transport resolves with it, and the API
 * client builds cache keys with it before (and without) ever loading the transport.
 */
import { isAbsoluteUrl } from '../catalogue/media.js';

export type QueryValues = Record<string, string | string[] | undefined>;

/** A URL under `base` (keeping its path prefix), or an absolute URL as given, with `query` appended. */
export function resolveUrl(base: URL, pathOrUrl: string | URL, query?: QueryValues): URL {
  let url: URL;
  if (pathOrUrl instanceof URL) url = new URL(pathOrUrl.href);
  else if (isAbsoluteUrl(pathOrUrl)) url = new URL(pathOrUrl);
  else {
    const prefix = base.pathname.replace(/\/+$/, '');
    const path = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
    url = new URL(`${prefix}${path}`, base.origin);
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, v);
  }
  return url;
}
