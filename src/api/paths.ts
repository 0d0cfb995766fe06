/** Path segments and query strings of the service's URLs (spec §4). */
import { UsageError } from '../errors.js';
import type { QueryValues } from '../http/resolve-url.js';

/** `.` and `..`: URL normalisation removes them from a path even percent-encoded, so they can never be sent. */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/**
 * A value as one percent-encoded path segment (spaces, `/`, `?`, `#`… encoded). `.` and `..`
 * cannot be sent at all: URL normalisation removes them even percent-encoded.
 */
export function pathSegment(value: string): string {
  if (isDotSegment(value)) {
    throw new UsageError(`"${value}" cannot be an exercise id, name or media name.`);
  }
  return encodeURIComponent(value);
}

/** Query parameters as strings: undefined ones left out, arrays repeated (empty ones left out). */
export function toQuery(params: object): QueryValues {
  const query: QueryValues = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[name] = value.map(String);
    } else query[name] = String(value);
  }
  return query;
}
