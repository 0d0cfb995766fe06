/**
 * The response cache: JSON answers of GET requests and the full records they carry, in a
 * cacache store (docs/design.md "Cache and requests"). Reads are verified (store-read.ts); a
 * corrupt entry is dropped and reported as a miss, never served. The cache is an
 * optimisation: a store that cannot be read or written is a miss or a skipped write, told
 * to `log` (--verbose), never a failed command. The directory's checks are store-dir.ts's,
 * the verified read of one entry verified-entry.ts's, the format's reads and writes
 * store-read.ts's, store-write.ts's and store-write-sync.ts's, when and how a write happens
 * store-writes.ts's. One job, the store's policy (what is fresh, what is kept and under which
 * keys), hence a little over 250 lines.
 */
import { bytesUnder, clearStore } from './store-clear.js';
import type { HeaderBag } from './headers.js';
import { type EntryMeta, entryMetaFor, isFresh } from './freshness.js';
import { recordIdKey, recordNameKey } from './keys.js';
import { recordKeys } from './records.js';
import { deleteEntry, removeContent } from './store-write.js';
import { deleteEntrySync, linkEntrySync } from './store-write-sync.js';
import { StoreWrites } from './store-writes.js';
import { StoreDir } from './store-dir.js';
import { type Verified, readVerified } from './verified-entry.js';
import { loadCacache } from '../vendor/cacache.js';

export interface LookupOptions {
  /** ms since the epoch (Date.now() in use; injected by tests). */
  now: number;
  /** The configured time to live, for answers without max-age. */
  ttlMs: number;
}

export interface StoreOptions {
  /** The response headers (lower-case names): cache-control, etag, last-modified, date, age. */
  headers?: HeaderBag;
  now: number;
}

/** `language`: the Content-Language the answer came with, when it had one. */
export type CacheLookup =
  | { status: 'fresh'; body: unknown; storedAt: number; language?: string }
  /** Too old, or no-cache: revalidate with etag / lastModified when given, else fetch anew; --offline may still use body. */
  | { status: 'stale'; body: unknown; storedAt: number; etag?: string; lastModified?: string; language?: string }
  | { status: 'miss' };

export interface CacheInfo {
  path: string;
  /** Keys stored: one per cached answer, one or two per known full record (by id, by name). */
  entries: number;
  /** Bytes on disk under path (content, index and temp files). */
  bytes: number;
  /** When the oldest entry was written, ms since the epoch; null when empty. */
  oldest: number | null;
}

export interface ResponseCacheOptions {
  /** Where problems go (a dropped corrupt entry, a failed write): --verbose. */
  log?: (line: string) => void;
}

const MISS: CacheLookup = { status: 'miss' };

export class ResponseCache {
  readonly path: string;
  private readonly log: (line: string) => void;
  /** Index bucket sizes seen on reads, so a write can compact a bucket that has grown. */
  private readonly bucketBytes = new Map<string, number>();
  /** The directory's checks and permissions (store-dir.ts). */
  private readonly dir: StoreDir;
  /** When and how writes happen (store-writes.ts). */
  private readonly writes: StoreWrites;

  private constructor(dir: string, options: ResponseCacheOptions) {
    this.path = dir;
    this.log = options.log ?? (() => {});
    this.dir = new StoreDir(dir, this.log);
    this.writes = new StoreWrites(dir, this.log);
  }

  /** The store in `dir` (created on the first write). Does no I/O. */
  static open(dir: string, options: ResponseCacheOptions = {}): ResponseCache {
    return new ResponseCache(dir, options);
  }

  /** The answer stored under `key`: fresh, stale (with its validators) or a miss. */
  async get(key: string, options: LookupOptions): Promise<CacheLookup> {
    await this.writes.settled(key);
    this.dir.check();
    if (this.dir.unusable) return MISS;
    const found = await this.read(key);
    if (!found) return MISS;
    const { meta, body } = found;
    const language = meta.language !== undefined ? { language: meta.language } : {};
    if (isFresh(meta, options.now, options.ttlMs)) return { status: 'fresh', body, storedAt: meta.storedAt, ...language };
    return {
      status: 'stale',
      body,
      storedAt: meta.storedAt,
      ...language,
      ...(meta.etag !== undefined ? { etag: meta.etag } : {}),
      ...(meta.lastModified !== undefined ? { lastModified: meta.lastModified } : {}),
    };
  }

  /**
   * Stores a 200 answer. With `Cache-Control: no-store` nothing is stored and an entry
   * already there is dropped. Resolves to whether it was stored.
   */
  async put(key: string, body: unknown, options: StoreOptions): Promise<boolean> {
    this.writes.runQueued();
    const stored = await this.store(key, body, options);
    await this.writes.compacted();
    return stored;
  }

  /** put(), started now (done at once, or under way when it returns a promise: store-writes.ts): putLater() runs it for each queued answer. */
  private store(key: string, body: unknown, options: StoreOptions): boolean | Promise<boolean> {
    this.dir.check();
    if (this.dir.unusable) {
      this.log(`cache: cannot store the answer for ${key}: the store at ${this.path} is unusable`);
      return false;
    }
    const meta = entryMetaFor(options.headers, options.now);
    if (!meta) {
      this.forget(key);
      return false;
    }
    const failed = (err: unknown): false => {
      this.log(`cache: cannot store the answer for ${key}: ${(err as Error).message}`);
      return false;
    };
    try {
      this.dir.makePrivate();
      const written = this.writes.write(key, Buffer.from(JSON.stringify(body)), meta);
      if (!(written instanceof Promise)) {
        this.compactLater(key);
        return true;
      }
      return written.then(() => {
        this.compactLater(key);
        return true;
      }, failed);
    } catch (err) {
      return failed(err);
    }
  }

  /**
   * Stores as put() does, later: the answer goes to the user first, and is written once this
   * turn of the event loop is over, while the next request of a listing is out (a listing of 800
   * pages never waits for a write between its requests). flush(), which the run's exit awaits,
   * writes what is still queued; a failed write is logged and lost, as with put().
   */
  putLater(key: string, body: unknown, options: StoreOptions): void {
    this.writes.later(() => this.store(key, body, options));
  }

  /** Writes what putLater() queued (the run's exit awaits it). */
  async flush(): Promise<void> {
    await this.writes.flush();
  }

  /**
   * After a 304 to a conditional request: the stored answer is confirmed, fresh from `now`,
   * with the 304's validators and directives where it sent any. Resolves to the body, or to
   * a miss when the entry is gone or corrupt (then the caller fetches without validators).
   */
  async refresh(key: string, options: StoreOptions): Promise<CacheLookup> {
    await this.writes.settled(key);
    this.dir.check();
    if (this.dir.unusable) return MISS;
    const found = await this.read(key);
    if (!found) return MISS;
    const meta = entryMetaFor(options.headers, options.now, found.meta);
    if (!meta) this.forget(key);
    else {
      try {
        linkEntrySync(this.path, key, found.entry.integrity, found.data.length, meta);
        this.compactLater(key);
      } catch (err) {
        this.log(`cache: cannot refresh the answer for ${key}: ${(err as Error).message}`);
      }
      await this.writes.compacted();
    }
    return { status: 'fresh', body: found.body, storedAt: options.now };
  }

  /** Forgets the answer stored under `key`, if any. */
  async delete(key: string): Promise<void> {
    await this.writes.settled(key);
    this.forget(key);
  }

  /**
   * Keeps a full record so `show` by its id or its exact name is answered from the cache,
   * whichever request brought it. `scope` is cacheScope() of the connection and language.
   * The headers of the answer that carried it apply as to any answer (no-store, max-age);
   * validators belong to URLs, so a record keeps none.
   */
  async putRecord(scope: string, record: unknown, options: StoreOptions): Promise<boolean> {
    this.writes.runQueued();
    this.dir.check();
    if (this.dir.unusable) return false;
    const keys = recordKeys(scope, record);
    const full = entryMetaFor(options.headers, options.now);
    if (!full) {
      for (const key of keys) this.forget(key);
      return false;
    }
    const [first, ...others] = keys;
    if (first === undefined) return false;
    const meta: EntryMeta = {
      storedAt: full.storedAt,
      ...(full.maxAgeMs !== undefined ? { maxAgeMs: full.maxAgeMs } : {}),
      ...(full.noCache ? { noCache: true } : {}),
      ...(full.language !== undefined ? { language: full.language } : {}),
    };
    try {
      this.dir.makePrivate();
      for (const key of others) await this.writes.settled(key);
      const { integrity, size } = await this.writes.write(first, Buffer.from(JSON.stringify(record)), meta);
      for (const key of others) linkEntrySync(this.path, key, integrity, size, meta);
    } catch (err) {
      this.log(`cache: cannot store the record ${first}: ${(err as Error).message}`);
      return false;
    }
    for (const key of keys) this.compactLater(key);
    await this.writes.compacted();
    return true;
  }

  /**
   * A full record by id (exact) or by name (case-insensitive), from any answer that carried
   * it in this scope. A fresh match wins; else the stale one (for --offline), else a miss.
   */
  async getRecord(scope: string, idOrName: string, options: LookupOptions): Promise<CacheLookup> {
    const byId = await this.get(recordIdKey(scope, idOrName), options);
    if (byId.status === 'fresh') return byId;
    const byName = await this.get(recordNameKey(scope, idOrName), options);
    if (byName.status === 'fresh' || byId.status === 'miss') return byName;
    return byId;
  }

  /** Location, number of entries, bytes on disk and the oldest entry's time. */
  async info(): Promise<CacheInfo> {
    await this.flush();
    this.dir.check(true);
    const { default: cacache } = await loadCacache();
    const listed = Object.values(await cacache.ls(this.path));
    const oldest = listed.reduce<number | null>((min, e) => (min === null || e.time < min ? e.time : min), null);
    return { path: this.path, entries: listed.length, bytes: await bytesUnder(this.path), oldest };
  }

  /**
   * Removes every entry (the whole store directory). The request ledger is elsewhere and stays.
   * The directory is first renamed aside, in one step, so processes writing at the same time
   * start a fresh store rather than write into one being removed; the removal then retries
   * what a late writer added (ENOTEMPTY). Resolves to the files it could not remove (0 as a rule).
   */
  async clear(): Promise<number> {
    await this.flush();
    this.dir.check(true);
    return clearStore(this.path);
  }

  /** The verified entry under `key`, or undefined (a corrupt one dropped on the way): verified-entry.ts. */
  private async read(key: string): Promise<Verified | undefined> {
    return readVerified(this.path, key, {
      log: this.log,
      bucketSeen: (bytes) => this.bucketBytes.set(key, bytes),
      drop: (reason, badContent) => this.drop(key, reason, badContent),
    });
  }

  /** Drops a corrupt entry, and its content when that is what failed verification. */
  private async drop(key: string, reason: string, badContent?: string): Promise<void> {
    this.log(`cache: dropped the entry for ${key}: ${reason}`);
    await this.safely(`drop the entry for ${key}`, undefined, async () => {
      await deleteEntry(this.path, key);
      if (badContent !== undefined) await removeContent(this.path, badContent);
    });
    this.bucketBytes.delete(key);
  }

  /** Deletes `key` if it has ever been stored (no deletion line written for what was never there). */
  private forget(key: string): void {
    try {
      deleteEntrySync(this.path, key);
    } catch (err) {
      this.log(`cache: cannot drop the entry for ${key}: ${(err as Error).message}`);
    }
  }

  /** Compacts `key`'s bucket after a write when a read found it grown (store-writes.ts); flush() waits for it. */
  private compactLater(key: string): void {
    this.writes.compact(key, this.bucketBytes.get(key));
    this.bucketBytes.delete(key);
  }

  private async safely<T>(what: string, fallback: T, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      this.log(`cache: cannot ${what}: ${(err as Error).message}`);
      return fallback;
    }
  }
}
