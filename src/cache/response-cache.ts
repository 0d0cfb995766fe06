/**
 * The response cache: JSON answers of GET requests and the full records they carry, one file
 * per key (entry-file.ts), judged by http-cache-semantics (freshness.ts; docs/design.md "Cache
 * and requests"). A corrupt entry is dropped and reported as a miss, never served. The cache
 * is an optimisation: a store that cannot be read or written is a miss or a skipped write,
 * told to `log` (--verbose), never a failed command. A hit is one read of one file, a miss one
 * write (two for a full record: by id and by name). The directory's checks are cache-dir.ts's,
 * when a write happens write-queue.ts's; this file is the store's policy: what is fresh, what
 * is kept and under which keys.
 */
import { bytesUnder, clearStore, oldestEntry } from './store-clear.js';
import type { HeaderBag } from './headers.js';
import { type Freshness, freshnessFor, isFresh, parseFreshness, revalidated, validatorsOf } from './freshness.js';
import { recordIdKey, recordKeys, recordNameKey } from './keys.js';
import { entryNames, readEntry, removeEntry, writeEntrySync } from './entry-file.js';
import { WriteQueue } from './write-queue.js';
import { StoreDir } from './cache-dir.js';

export interface LookupOptions {
  /** ms since the epoch (Date.now() in use; injected by tests). */
  now: number;
  /** The configured time to live, for answers whose headers say nothing of freshness. */
  ttlMs: number;
}

export interface StoreOptions {
  /** The response headers (lower-case names): cache-control, expires, etag, last-modified, date, age, vary. */
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
  /** Bytes on disk under path (entries, temp files, anything an older release left there). */
  bytes: number;
  /** When the oldest entry was written, ms since the epoch; null when empty. */
  oldest: number | null;
}

export interface ResponseCacheOptions {
  /** Where problems go (a dropped corrupt entry, a failed write): --verbose. */
  log?: (line: string) => void;
}

/** An entry read and checked: its freshness and its parsed body. */
interface Found {
  freshness: Freshness;
  body: unknown;
  bytes: Buffer;
}

const MISS: CacheLookup = { status: 'miss' };

/** Headers without the validators: a record copied out of an answer keeps none (validators belong to URLs). */
function withoutValidators(headers: HeaderBag | undefined): HeaderBag {
  const { etag: _etag, 'last-modified': _lastModified, ...rest } = headers ?? {};
  return rest;
}

export class ResponseCache {
  readonly path: string;
  private readonly log: (line: string) => void;
  /** The directory's checks and permissions (cache-dir.ts). */
  private readonly dir: StoreDir;
  /** When writes happen (write-queue.ts). */
  private readonly writes = new WriteQueue();

  private constructor(dir: string, options: ResponseCacheOptions) {
    this.path = dir;
    this.log = options.log ?? (() => {});
    this.dir = new StoreDir(dir, this.log);
  }

  /** The store in `dir` (created on the first write). Does no I/O. */
  static open(dir: string, options: ResponseCacheOptions = {}): ResponseCache {
    return new ResponseCache(dir, options);
  }

  /** The answer stored under `key`: fresh, stale (with its validators) or a miss. */
  async get(key: string, options: LookupOptions): Promise<CacheLookup> {
    await this.writes.settled(key);
    const found = this.read(key);
    if (!found) return MISS;
    const { freshness, body } = found;
    const language = freshness.language !== undefined ? { language: freshness.language } : {};
    if (isFresh(freshness, options.now, options.ttlMs)) return { status: 'fresh', body, storedAt: freshness.storedAt, ...language };
    return { status: 'stale', body, storedAt: freshness.storedAt, ...language, ...(await validatorsOf(freshness)) };
  }

  /**
   * Stores a 200 answer. With `Cache-Control: no-store` nothing is stored and an entry
   * already there is dropped. Resolves to whether it was stored.
   */
  async put(key: string, body: unknown, options: StoreOptions): Promise<boolean> {
    this.writes.runQueued();
    return this.store([key], body, options);
  }

  /**
   * Stores as put() does, later: the answer goes to the user first, and is written once this
   * turn of the event loop is over, while the next request of a listing is out (a listing of 800
   * pages never waits for a write between its requests). flush(), which the run's exit awaits,
   * writes what is still queued; a failed write is logged and lost, as with put().
   */
  putLater(key: string, body: unknown, options: StoreOptions): void {
    this.writes.later(() => this.store([key], body, options));
  }

  /** Writes what putLater() queued (the run's exit awaits it). */
  async flush(): Promise<void> {
    await this.writes.flush();
  }

  /**
   * After a 304 to a conditional request: the stored answer is confirmed, fresh from `now`, as
   * its policy updated with the 304's headers says. Resolves to the body, or to a miss when the
   * entry is gone or corrupt (then the caller fetches without validators).
   */
  async refresh(key: string, options: StoreOptions): Promise<CacheLookup> {
    await this.writes.settled(key);
    const found = this.read(key);
    if (!found) return MISS;
    const updated = await revalidated(found.freshness, options.headers, options.now);
    if (!updated) this.forget(key);
    else {
      try {
        writeEntrySync(this.path, key, { ...updated.freshness }, found.bytes);
      } catch (err) {
        this.log(`cache: cannot refresh the answer for ${key}: ${(err as Error).message}`);
      }
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
    return this.store(recordKeys(scope, record), record, { now: options.now, headers: withoutValidators(options.headers) });
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
    const names = entryNames(this.path);
    return { path: this.path, entries: names.length, bytes: await bytesUnder(this.path), oldest: await oldestEntry(this.path, names) };
  }

  /**
   * Removes every entry (the whole store directory, with whatever an older release left in
   * it). The request ledger is elsewhere and stays. Safe while other processes write:
   * store-clear.ts. Resolves to the files it could not remove (0 as a rule).
   */
  async clear(): Promise<number> {
    await this.flush();
    this.dir.check(true);
    return clearStore(this.path);
  }

  /**
   * Writes `body` under every one of `keys` (an answer: one; a record: its id and name), one
   * file each, behind any write of those keys under way. Resolves to whether it was stored.
   */
  private store(keys: string[], body: unknown, options: StoreOptions): Promise<boolean> {
    const [first] = keys;
    if (first === undefined) return Promise.resolve(false);
    this.dir.check();
    if (this.dir.unusable) {
      this.log(`cache: cannot store the answer for ${first}: the store at ${this.path} is unusable`);
      return Promise.resolve(false);
    }
    return this.writes.run(keys, async () => {
      try {
        const judged = await freshnessFor(options.headers, options.now);
        if (!judged) {
          for (const key of keys) this.forget(key);
          return false;
        }
        const bytes = Buffer.from(JSON.stringify(body));
        for (const key of keys) this.write(key, { ...judged.freshness }, bytes);
        return true;
      } catch (err) {
        this.log(`cache: cannot store the answer for ${first}: ${(err as Error).message}`);
        return false;
      }
    });
  }

  /**
   * One entry file written, synchronously: a few calls for a file of a few KiB, where the
   * thread pool's hops and promises cost more than the write, and a listing's writes keep up
   * with its pages (each is written two turns after its answer, write-queue.ts). A store
   * removed meanwhile (`cache clear` in another process) is made anew, once.
   */
  private write(key: string, meta: Record<string, unknown>, bytes: Buffer): void {
    this.dir.makePrivate();
    try {
      writeEntrySync(this.path, key, meta, bytes);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.dir.makePrivate(true);
      writeEntrySync(this.path, key, meta, bytes);
    }
  }

  /** The checked entry under `key`, or undefined (a corrupt one dropped on the way). */
  private read(key: string): Found | undefined {
    this.dir.check();
    if (this.dir.unusable) return undefined;
    let read;
    try {
      read = readEntry(this.path, key);
    } catch (err) {
      this.log(`cache: cannot read ${this.path}: ${(err as Error).message}`);
      return undefined;
    }
    if (read.status === 'missing') return undefined;
    if (read.status === 'corrupt') return this.drop(key, read.reason);
    const freshness = parseFreshness(read.entry.meta);
    if (!freshness) return this.drop(key, 'its policy is not what this client writes');
    try {
      return { freshness, body: JSON.parse(read.entry.body.toString('utf8')), bytes: read.entry.body };
    } catch {
      return this.drop(key, 'its content is not JSON');
    }
  }

  /** Drops a corrupt entry: a miss. */
  private drop(key: string, reason: string): undefined {
    this.log(`cache: dropped the entry for ${key}: ${reason}`);
    this.forget(key);
    return undefined;
  }

  /** Removes `key`'s entry, if any. */
  private forget(key: string): void {
    try {
      removeEntry(this.path, key);
    } catch (err) {
      this.log(`cache: cannot drop the entry for ${key}: ${(err as Error).message}`);
    }
  }
}
