/**
 * cacache, the on-disk store of the response cache (src/cache/). Entries are read and written
 * without it (src/cache/store-read.ts, store-write.ts, in cacache's format), so it is loaded only:
 * - in part, its index module (loadCacacheIndex), to compact an index bucket grown by many
 *   rewrites of one key (entries themselves are written by src/cache/store-write.ts), without
 *   the verify and glob code of the whole API (bench/cache-load.mjs has the figures);
 * - whole (loadCacache), for `cache info` (ls) and for entries this client did not write:
 *   ~200 KB bundled.
 */
export function loadCacache(): Promise<typeof import('cacache')> {
  return import('cacache');
}

/** cacache's index module alone, to compact a bucket (rare: entries are written without cacache, src/cache/store-write.ts). */
export async function loadCacacheIndex(): Promise<typeof import('cacache/lib/entry-index.js').default> {
  return (await import('cacache/lib/entry-index.js')).default;
}
