/**
 * The parts of cacache this project calls (cacache ships no types). The write path loads
 * cacache's own put and index modules rather than its whole API, which would also load its
 * verify and glob code (bench/cache-load.mjs has the figures).
 */
declare module 'cacache/lib/put.js' {
  interface PutOptions {
    metadata?: unknown;
    algorithms?: string[];
  }
  /** Writes the content atomically (temp file, then rename), then appends the index line; resolves to the integrity. */
  function put(cache: string, key: string, data: Buffer | string, options?: PutOptions): Promise<{ toString(): string }>;
  export default put;
}

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
    get(cache: string, key: string): Promise<{ data: Buffer; metadata?: unknown; integrity: string; size: number }>;
    put(cache: string, key: string, data: Buffer | string, options?: { metadata?: unknown; algorithms?: string[] }): Promise<unknown>;
  };
  export default cacache;
}
