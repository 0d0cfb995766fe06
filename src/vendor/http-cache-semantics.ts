/**
 * http-cache-semantics (RFC 9111 freshness, Age, validators and revalidation), the one set of
 * cache rules of the client's response cache and the team proxy (src/cache/headers.ts).
 * Loaded when an answer is stored or revalidated, paths that send a request anyway; a cache
 * hit compares the times the policy decided when it stored the answer and never loads it.
 */
import type CachePolicy from 'http-cache-semantics';

export async function loadCachePolicy(): Promise<typeof CachePolicy> {
  return (await import('http-cache-semantics')).default;
}
