/**
 * The proxy's shared store of upstream JSON answers: the CLI's cacache store (src/cache
 * store-read.ts / store-write.ts, the same directory by default), with entries of the proxy's
 * own: the exact bytes the upstream sent, and the http-cache-semantics policy of the answer
 * (its request, response headers and time) as the entry's metadata. Freshness, age and
 * revalidation headers all come from that policy, never from rules of ours.
 *
 * Keys name the upstream base URL and the upstream key by hash (keys.ts keyHash; never the key
 * itself), then the path and the canonical query: answers of one upstream account are shared by
 * every client of the proxy, whatever their own key. What a client's plan may see is cut at
 * answer time (plan-filter.ts), never stored per client.
 */
import type CachePolicy from 'http-cache-semantics';
import { canonicalQuery, keyHash } from '../cache/keys.js';
import { readStoreEntry } from '../cache/store-read.js';
import { deleteEntry, linkEntry, removeContent, writeEntry } from '../cache/store-write.js';

/** Bumped when the meaning of an entry changes: older ones are simply never read. */
const KEY_VERSION = 'proxy-v1';

export interface StoredAnswer {
  policy: CachePolicy;
  body: Buffer;
  /** The cacache integrity of body, to point refreshed metadata at the same content. */
  integrity: string;
}

interface Meta {
  policy: CachePolicy.CachePolicyObject;
}

export function answerKey(upstreamBaseUrl: string, upstreamKey: string, path: string, query: string): string {
  const q = canonicalQuery(new URLSearchParams(query));
  return `${KEY_VERSION} ${upstreamBaseUrl} ${keyHash(upstreamKey)} GET ${path}${q ? `?${q}` : ''}`;
}

export class AnswerStore {
  constructor(
    readonly dir: string,
    /** http-cache-semantics' class (cache-policy.ts loads it). */
    private readonly Policy: typeof CachePolicy,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** The verified entry under `key`; undefined when there is none or it is corrupt (then dropped). */
  async get(key: string): Promise<StoredAnswer | undefined> {
    let read;
    try {
      read = await readStoreEntry(this.dir, key);
    } catch (err) {
      this.log(`cache: cannot read ${key}: ${(err as Error).message}`);
      return undefined;
    }
    if (read.status === 'missing') return undefined;
    if (read.status !== 'found') {
      await this.drop(key, read.status === 'corrupt' ? read.entry.integrity : undefined);
      return undefined;
    }
    const meta = read.entry.metadata as Meta | undefined;
    try {
      if (!meta || typeof meta.policy !== 'object') throw new Error('no policy');
      return { policy: this.Policy.fromObject(meta.policy), body: read.data, integrity: read.entry.integrity };
    } catch {
      await this.drop(key);
      return undefined;
    }
  }

  /** Stores a complete answer; a failed write is logged and skipped (the answer still goes out). */
  async put(key: string, policy: CachePolicy, body: Buffer): Promise<void> {
    try {
      await writeEntry(this.dir, key, body, { policy: policy.toObject() } satisfies Meta);
    } catch (err) {
      this.log(`cache: cannot store ${key}: ${(err as Error).message}`);
    }
  }

  /** After a 304: the same content under the revalidated policy. */
  async refresh(key: string, stored: StoredAnswer, policy: CachePolicy): Promise<void> {
    try {
      await linkEntry(this.dir, key, stored.integrity, stored.body.length, { policy: policy.toObject() } satisfies Meta);
    } catch (err) {
      this.log(`cache: cannot refresh ${key}: ${(err as Error).message}`);
    }
  }

  private async drop(key: string, badContent?: string): Promise<void> {
    this.log(`cache: dropped the corrupt entry ${key}`);
    try {
      await deleteEntry(this.dir, key);
      if (badContent !== undefined) await removeContent(this.dir, badContent);
    } catch {
      // a store that cannot be written: the entry stays unreadable, and is a miss each time
    }
  }
}
