/**
 * http-cache-semantics (RFC 9111 freshness, Age, validators and revalidation), the cache
 * rules of `serve --upstream` (src/proxy/). Loaded when a proxy starts; no other
 * command uses it.
 */
import type CachePolicy from 'http-cache-semantics';

export async function loadCachePolicy(): Promise<typeof CachePolicy> {
  return (await import('http-cache-semantics')).default;
}
