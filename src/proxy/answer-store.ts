/**
 * The proxy's shared store of upstream JSON answers: the CLI's store (src/cache/store-files.ts,
 * one file per key, the same directory by default), with entries of the proxy's own: the exact
 * bytes the upstream sent, and their freshness as the client's cache keeps it
 * (src/cache/headers.ts: the http-cache-semantics policy of the answer and how long it stays
 * fresh). Freshness, age and revalidation headers all come from that one model.
 *
 * Keys name the upstream base URL and the upstream key by hash (cached-get.ts keyHash; never the key
 * itself), then the path and the canonical query: answers of one upstream account are shared by
 * every client of the proxy, whatever their own key. What a client's plan may see is cut at
 * answer time (plan-filter.ts), never stored per client.
 */
import type CachePolicy from 'http-cache-semantics';
import { makePrivateDir, readEntry, removeEntry, writeEntry, type Freshness, parseFreshness } from '../cache/store-files.js';
import { storedPolicy } from '../cache/headers.js';
import { canonicalQuery, keyHash } from '../cache/cached-get.js';

/** Bumped when the meaning of an entry changes: older ones are simply never read. */
const KEY_VERSION = 'proxy-v1';

export interface StoredAnswer {
  freshness: Freshness;
  /** The policy of freshness.policy, for the headers of the answer served from it. */
  policy: CachePolicy;
  body: Buffer;
}

export function answerKey(upstreamBaseUrl: string, upstreamKey: string, path: string, query: string): string {
  const q = canonicalQuery(new URLSearchParams(query));
  return `${KEY_VERSION} ${upstreamBaseUrl} ${keyHash(upstreamKey)} GET ${path}${q ? `?${q}` : ''}`;
}

export class AnswerStore {
  constructor(
    readonly dir: string,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** The checked entry under `key`; undefined when there is none or it is corrupt (then dropped). */
  async get(key: string): Promise<StoredAnswer | undefined> {
    let read;
    try {
      read = readEntry(this.dir, key);
    } catch (err) {
      this.log(`cache: cannot read ${key}: ${(err as Error).message}`);
      return undefined;
    }
    if (read.status === 'missing') return undefined;
    const freshness = read.status === 'found' ? parseFreshness(read.entry.meta) : undefined;
    if (read.status === 'found' && freshness) {
      try {
        return { freshness, policy: await storedPolicy(freshness), body: read.entry.body };
      } catch {
        // a policy object http-cache-semantics does not take: as corrupt
      }
    }
    this.log(`cache: dropped the corrupt entry ${key}`);
    try {
      removeEntry(this.dir, key);
    } catch {
      // a store that cannot be written: the entry stays unreadable, and is a miss each time
    }
    return undefined;
  }

  /** Stores a complete answer (a new one, or one a 304 confirmed); a failed write is logged and skipped (the answer still goes out). */
  async put(key: string, freshness: Freshness, body: Buffer): Promise<void> {
    try {
      makePrivateDir(this.dir);
      await writeEntry(this.dir, key, { ...freshness }, body);
    } catch (err) {
      this.log(`cache: cannot store ${key}: ${(err as Error).message}`);
    }
  }
}
