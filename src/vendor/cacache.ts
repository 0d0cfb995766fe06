/**
 * cacache, the on-disk store of the response cache (src/cache/). A cache hit reads the store
 * without it (src/cache/store-read.ts reads cacache's format by hand), so it is loaded only:
 * - in part, its put and index modules (loadCacacheWrite), when something is written or
 *   dropped: after a miss. ~100 KB bundled (dist/bundle/vendor/cacache-write.cjs), without
 *   the verify and glob code of the whole API (bench/cache-load.mjs has the figures);
 * - whole (loadCacache), for `cache info` (ls) and for entries this client did not write:
 *   ~200 KB bundled.
 */
export function loadCacache(): Promise<typeof import('cacache')> {
  return import('cacache');
}

export interface CacacheWrite {
  put: typeof import('cacache/lib/put.js').default;
  index: typeof import('cacache/lib/entry-index.js').default;
}

let write: Promise<CacacheWrite> | undefined;

/** cacache's put and entry-index modules, loaded once. */
export function loadCacacheWrite(): Promise<CacacheWrite> {
  write ??= Promise.all([import('cacache/lib/put.js'), import('cacache/lib/entry-index.js')]).then(([put, index]) => ({
    put: put.default,
    index: index.default,
  }));
  return write;
}
