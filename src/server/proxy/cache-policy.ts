/**
 * http-cache-semantics (RFC 9111 freshness, Age, validators and revalidation for a cache),
 * loaded when a proxy starts: imported lazily, so the bundle keeps it in a vendor file of its
 * own (scripts/bundle.mjs) and no other command pays for it.
 */
import type CachePolicy from 'http-cache-semantics';

export async function loadCachePolicy(): Promise<typeof CachePolicy> {
  return (await import('http-cache-semantics')).default;
}
