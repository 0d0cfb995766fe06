/**
 * The response cache: JSON answers and the full records they carry, one file per key, judged by
 * http-cache-semantics. A corrupt entry is a miss; a store that cannot be used is a miss or a skipped
 * write told to `log`, never a failed command. A key's writes keep their order and its reads wait for them.
 */
import { dirname } from 'node:path';
import type { CacheDirError } from '../errors.js';
import { type CacheInfo, clearStore, measureStore } from './store-clear.js';
import { type HeaderBag, freshnessFor, revalidated, validatorsOf } from './headers.js';
import { type Freshness, checkCacheRoot, checkOwnDir, isFresh, makePrivateDir, parseFreshness, readEntry, removeEntry, writeEntrySync } from './store-files.js';

/** Bumped when a key's or body's meaning changes: old entries are never read. */
export const KEY_VERSION = 'v2';

export function recordIdKey(scope: string, id: string): string {
  return `${KEY_VERSION} record ${scope} id ${id}`;
}

/** Key of a full record by its (English) name: NFC, lower case, as the server matches names. */
export function recordNameKey(scope: string, name: string): string {
  return `${KEY_VERSION} record ${scope} name ${name.normalize('NFC').toLowerCase()}`;
}

function recordKeys(scope: string, record: unknown): string[] {
  const { id, name } = (typeof record === 'object' && record !== null ? record : {}) as Record<string, unknown>;
  const keys = [typeof id === 'string' && id !== '' && recordIdKey(scope, id), typeof name === 'string' && name !== '' && recordNameKey(scope, name)];
  return keys.filter((key) => key !== false);
}

/** `now`: ms since the epoch; `ttlMs`: for answers whose headers say nothing of freshness. */
type LookupOptions = { now: number; ttlMs: number };
type StoreOptions = { headers?: HeaderBag; now: number };

export type CacheLookup =
  | { status: 'fresh'; body: unknown; storedAt: number; language?: string }
  /** Too old, or no-cache: revalidate with etag / lastModified when given, else fetch anew; --offline may still use body. */
  | { status: 'stale'; body: unknown; storedAt: number; etag?: string; lastModified?: string; language?: string }
  | { status: 'miss' };

/** The writes under way, by key: a key's writes keep their order, and its reads come after them. */
class WriteQueue {
  private readonly pending = new Map<string, Promise<void>>();

  async settled(key: string): Promise<void> {
    await this.pending.get(key);
  }

  run<T>(keys: readonly string[], write: () => Promise<T>): Promise<T> {
    const result = Promise.all(keys.map((key) => this.pending.get(key) ?? Promise.resolve())).then(write);
    const settled = Promise.allSettled([result]).then(() => {});
    for (const key of keys) this.pending.set(key, settled);
    void settled.then(() => {
      for (const key of keys) if (this.pending.get(key) === settled) this.pending.delete(key);
    });
    return result;
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }
}

export class ResponseCache {
  private readonly writes = new WriteQueue();
  /** The directory cannot hold a store: every read a miss, every write skipped. */
  private unusable = false;
  private checked = false;
  private madePrivate = false;

  private constructor(
    readonly path: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The store in `dir` (created on the first write); does no I/O. */
  static open(dir: string, options: { log?: (line: string) => void } = {}): ResponseCache {
    return new ResponseCache(dir, options.log ?? (() => {}));
  }

  async get(key: string, options: LookupOptions): Promise<CacheLookup> {
    const found = await this.read(key);
    if (!found) return { status: 'miss' };
    const { freshness, body } = found;
    const { storedAt, language } = freshness;
    if (isFresh(freshness, options.now, options.ttlMs)) return { status: 'fresh', body, storedAt, language };
    return { status: 'stale', body, storedAt, language, ...(await validatorsOf(freshness)) };
  }

  /** Stores a 200 answer (not with `no-store`, which drops an entry there); resolves to whether it was stored. */
  async put(key: string, body: unknown, options: StoreOptions): Promise<boolean> {
    return this.store([key], body, options);
  }

  /** Resolves once every write under way is done. */
  async flush(): Promise<void> {
    await this.writes.flush();
  }

  /** After a 304: the stored answer confirmed, fresh from `now`, its policy updated; a miss when the entry is gone or corrupt. */
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

  /** Keeps a full record so `show` by its id or name is answered from the cache, whichever request brought it (no validators: they belong to URLs). */
  async putRecord(scope: string, record: unknown, options: StoreOptions): Promise<boolean> {
    const { etag: _etag, 'last-modified': _lastModified, ...headers } = options.headers ?? {};
    return this.store(recordKeys(scope, record), record, { now: options.now, headers });
  }

  /** A full record by id or name (any case) in this scope: a fresh match, else a stale one (--offline), else a miss. */
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

  /** Removes every entry, safe while other processes write (the ledger is elsewhere); resolves to the files it could not remove. */
  async clear(): Promise<number> {
    await this.flush();
    this.checkDir(true);
    return clearStore(this.path);
  }

  /** Checks the directory once: a planted link is CacheDirError (exit 6); another problem is one with `strict`, else misses only. */
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

  /** Writes `body` under each of `keys`, behind any write of those keys under way; resolves to whether stored. */
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

  /** One entry file written synchronously (small files); the directory made 0700 first, and anew once if `cache clear` removed it. */
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

  /** The checked entry under `key` once its writes are done, or undefined. */
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
