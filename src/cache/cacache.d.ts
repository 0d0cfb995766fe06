/**
 * The parts of cacache this project (and its tests) call; cacache ships no types. Entries are
 * read and written without cacache (store-read.ts, store-write.ts); compaction loads its index
 * module alone rather than its whole API, which would also load its verify and glob code
 * (bench/cache-load.mjs has the figures).
 */
declare module 'cacache/lib/entry-index.js' {
  interface RawEntry {
    key: string;
    integrity: string | null;
    time: number;
    size?: number;
    metadata?: unknown;
  }
  const index: {
    insert(cache: string, key: string, integrity: string, options?: { metadata?: unknown; size?: number; time?: number }): Promise<unknown>;
    /** Appends a deletion line (null integrity) for the key. */
    delete(cache: string, key: string): Promise<unknown>;
    /** Rewrites the key's bucket keeping, per matchFn, only the newest entries (atomically, by rename). */
    compact(cache: string, key: string, matchFn: (a: RawEntry, b: RawEntry) => boolean): Promise<unknown>;
  };
  export default index;
}

declare module 'cacache' {
  interface ListedEntry {
    key: string;
    integrity: string;
    path: string;
    size: number;
    time: number;
    metadata?: unknown;
  }
  const cacache: {
    ls(cache: string): Promise<Record<string, ListedEntry>>;
    get: {
      (cache: string, key: string): Promise<{ data: Buffer; metadata?: unknown; integrity: string; size: number }>;
      info(cache: string, key: string): Promise<ListedEntry | null>;
    };
    put(cache: string, key: string, data: Buffer | string, options?: { metadata?: unknown; algorithms?: string[] }): Promise<unknown>;
    index: { insert(cache: string, key: string, integrity: string, options?: { metadata?: unknown; size?: number; time?: number }): Promise<unknown> };
    verify(cache: string): Promise<{ badContentCount: number }>;
  };
  export default cacache;
}
