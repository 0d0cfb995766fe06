/**
 * The response cache: JSON answers of GET requests and the full records they carry, one file per
 * key (store-files.ts), judged by http-cache-semantics (headers.ts). A corrupt entry is a miss,
 * never served. The cache is an optimisation: a store that cannot be read or written is a miss or
 * a skipped write, told to `log` (--verbose), never a failed command. Writes of one key happen
 * in the order they were asked for, and a read of a key waits for them (WriteQueue).
 */
import { dirname } from 'node:path';
import type { CacheDirError } from '../errors.js';
import { type CacheInfo, clearStore, measureStore } from './store-clear.js';
import { type HeaderBag, freshnessFor, revalidated, validatorsOf } from './headers.js';
import { type Freshness, checkCacheRoot, checkOwnDir, isFresh, makePrivateDir, parseFreshness, readEntry, removeEntry, writeEntrySync } from './store-files.js';

/** Bumped when the meaning of a key or of a stored body changes: old entries are then simply never read. */
export const KEY_VERSION = 'v2';

/** Key of a full record by its id, in a scope (cached-get.ts cacheScope). */
export function recordIdKey(scope: string, id: string): string {
  return `${KEY_VERSION} record ${scope} id ${id}`;
}

/** Key of a full record by its (English) name: NFC, lower case, as the server matches names (ids match exactly). */
export function recordNameKey(scope: string, name: string): string {
  return `${KEY_VERSION} record ${scope} name ${name.normalize('NFC').toLowerCase()}`;
}

/** The keys a record is kept under in a scope: its id and its name. */
function recordKeys(scope: string, record: unknown): string[] {
  const { id, name } = (typeof record === 'object' && record !== null ? record : {}) as Record<string, unknown>;
  const keys = [typeof id === 'string' && id !== '' && recordIdKey(scope, id), typeof name === 'string' && name !== '' && recordNameKey(scope, name)];
  return keys.filter((key) => key !== false);
}

/** `now`: ms since the epoch; `ttlMs`: for answers whose headers say nothing of freshness; `headers`: the answer's, which decide whether and how long it is kept. */
type LookupOptions = { now: number; ttlMs: number };
type StoreOptions = { headers?: HeaderBag; now: number };

/** `language`: the Content-Language the answer came with, when it had one. */
export type CacheLookup =
  | { status: 'fresh'; body: unknown; storedAt: number; language?: string }
  /** Too old, or no-cache: revalidate with etag / lastModified when given, else fetch anew; --offline may still use body. */
  | { status: 'stale'; body: unknown; storedAt: number; etag?: string; lastModified?: string; language?: string }
  | { status: 'miss' };

/** The writes under way, by key: writes of one key keep their order, and a read of a key comes after them. */
class WriteQueue {
  /** Writes under way, by key; settled, never rejected. */
  private readonly pending = new Map<string, Promise<void>>();

  /** Resolves once the writes of `key` under way are done. */
  async settled(key: string): Promise<void> {
    await this.pending.get(key);
  }

  /** Runs `write` for `keys` after any write of those keys under way. */
  run<T>(keys: readonly string[], write: () => Promise<T>): Promise<T> {
    const result = Promise.all(keys.map((key) => this.pending.get(key) ?? Promise.resolve())).then(write);
    const settled = Promise.allSettled([result]).then(() => {});
    for (const key of keys) this.pending.set(key, settled);
    void settled.then(() => {
      for (const key of keys) if (this.pending.get(key) === settled) this.pending.delete(key);
    });
    return result;
  }

  /** Waits for every write under way. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }
}

export class ResponseCache {
  private readonly writes = new WriteQueue();
  /** The directory cannot hold a store (a file in its place, a dangling root): every read a miss, every write skipped. */
  private unusable = false;
  private checked = false;
  private madePrivate = false;

  private constructor(
    readonly path: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The store in `dir` (created on the first write). Does no I/O. `log`: where problems go (--verbose). */
  static open(dir: string, options: { log?: (line: string) => void } = {}): ResponseCache {
    return new ResponseCache(dir, options.log ?? (() => {}));
  }

  /** The answer stored under `key`: fresh, stale (with its validators) or a miss. */
  async get(key: string, options: LookupOptions): Promise<CacheLookup> {
    const found = await this.read(key);
    if (!found) return { status: 'miss' };
    const { freshness, body } = found;
    const { storedAt, language } = freshness;
    if (isFresh(freshness, options.now, options.ttlMs)) return { status: 'fresh', body, storedAt, language };
    return { status: 'stale', body, storedAt, language, ...(await validatorsOf(freshness)) };
  }

  /** Stores a 200 answer; with `Cache-Control: no-store` nothing is, and an entry already there is dropped. Resolves to whether it was stored. */
  async put(key: string, body: unknown, options: StoreOptions): Promise<boolean> {
    return this.store([key], body, options);
  }

  /** Resolves once every write under way is done (the run's exit awaits it). */
  async flush(): Promise<void> {
    await this.writes.flush();
  }

  /**
   * After a 304 to a conditional request: the stored answer is confirmed, fresh from `now`, its
   * policy updated with the 304's headers. Resolves to a miss when the entry is gone or corrupt
   * (then the caller fetches without validators).
   */
  async refresh(key: string, options: StoreOptions): Promise<CacheLookup> {
    const found = await this.read(key);
    if (!found) return { status: 'miss' };
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

  /**
   * Keeps a full record so `show` by its id or its exact name is answered from the cache,
   * whichever request brought it. The headers of the answer that carried it apply as to any
   * answer (no-store, max-age); validators belong to URLs, so a record keeps none.
   */
  async putRecord(scope: string, record: unknown, options: StoreOptions): Promise<boolean> {
    const { etag: _etag, 'last-modified': _lastModified, ...headers } = options.headers ?? {};
    return this.store(recordKeys(scope, record), record, { now: options.now, headers });
  }

  /** A full record by id (exact) or by name (case-insensitive) in this scope: a fresh match wins; else the stale one (for --offline), else a miss. */
  async getRecord(scope: string, idOrName: string, options: LookupOptions): Promise<CacheLookup> {
    const byId = await this.get(recordIdKey(scope, idOrName), options);
    if (byId.status === 'fresh') return byId;
    const byName = await this.get(recordNameKey(scope, idOrName), options);
    if (byName.status === 'fresh' || byId.status === 'miss') return byName;
    return byId;
  }

  async info(): Promise<CacheInfo> {
    await this.flush();
    this.checkDir(true);
    return measureStore(this.path);
  }

  /**
   * Removes every entry (the whole store directory, with whatever an older release left in it),
   * safe while other processes write (store-clear.ts); the request ledger is elsewhere and
   * stays. Resolves to the files it could not remove (0 as a rule).
   */
  async clear(): Promise<number> {
    await this.flush();
    this.checkDir(true);
    return clearStore(this.path);
  }

  /**
   * Checks the store's directory once. A symlink planted at it is always CacheDirError (exit 6);
   * another problem (a file in its place) is one too for `cache info|clear` (`strict`), and for
   * any other command makes the store unusable: misses only.
   */
  private checkDir(strict = false): void {
    if (this.checked && !strict) return;
    try {
      checkCacheRoot(dirname(this.path));
      checkOwnDir(this.path);
    } catch (err) {
      if (strict || (err as CacheDirError).details?.planted === true) throw err;
      this.log(`cache: ${(err as Error).message}`);
      this.unusable = true;
    }
    this.checked = true;
  }

  /** Writes `body` under every one of `keys`, one file each, behind any write of those keys under way. Resolves to whether it was stored. */
  private store(keys: string[], body: unknown, options: StoreOptions): Promise<boolean> {
    const [first] = keys;
    if (first === undefined) return Promise.resolve(false);
    this.checkDir();
    if (this.unusable) {
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
   * One entry file written, synchronously: for a file of a few KiB the thread pool's hops cost
   * more than the write, and a listing's writes keep up with its pages. The directory is made
   * 0700 before the first write, and made anew, once, when another process removed it (`cache clear`).
   */
  private write(key: string, meta: Record<string, unknown>, bytes: Buffer): void {
    if (!this.madePrivate) makePrivateDir(this.path);
    this.madePrivate = true;
    try {
      writeEntrySync(this.path, key, meta, bytes);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      makePrivateDir(this.path);
      writeEntrySync(this.path, key, meta, bytes);
    }
  }

  /** The checked entry under `key` once its writes are done, or undefined (a corrupt one dropped on the way). */
  private async read(key: string): Promise<{ freshness: Freshness; body: unknown; bytes: Buffer } | undefined> {
    await this.writes.settled(key);
    this.checkDir();
    if (this.unusable) return undefined;
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

  private forget(key: string): void {
    try {
      removeEntry(this.path, key);
    } catch (err) {
      this.log(`cache: cannot drop the entry for ${key}: ${(err as Error).message}`);
    }
  }
}
