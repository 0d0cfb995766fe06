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
 * answer time (answer-writer.ts), never stored per client.
 *
 * The entries last used are also held in memory (HotAnswers), with the headers they are
 * answered with made once per entry: a hit reads no file and rebuilds no policy (as nginx's
 * proxy_cache keeps its keys zone in shared memory and hot files in the page cache). Bounded by
 * bytes, least recently used out first: a few large lists must not push the process's memory up
 * without limit, and the disk still holds everything. The disk stays the store of record: an
 * entry held in memory that is no longer fresh is read again from disk, where another proxy
 * sharing the directory may have refreshed it.
 */
import type CachePolicy from 'http-cache-semantics';
import { makePrivateDir, readEntry, removeEntry, writeEntry, type Freshness, parseFreshness } from '../cache/store-files.js';
import { storedPolicy } from '../cache/headers.js';
import { canonicalQuery } from '../cache/cached-get.js';
import type { Outcome, ProxyAnswer } from './answers.js';

/** Bumped when the meaning of an entry changes: older ones are simply never read. */
const KEY_VERSION = 'proxy-v1';

export interface StoredAnswer {
  freshness: Freshness;
  /** The policy of freshness.policy, for the headers of the answer served from it. */
  policy: CachePolicy;
  body: Buffer;
  /** The policy's response headers without the two that differ per response (Age, Date): made once per entry, shared by its answers. */
  headers: Readonly<Record<string, string>>;
}

/** Roughly what an entry held in memory costs beside its body (policy, headers, key), for the memory bound. */
const ENTRY_OVERHEAD_BYTES = 2048;
/** Past this age http-cache-semantics may add a heuristic-expiration Warning (RFC 7234 5.5.4): those headers are made per answer. */
const HEURISTIC_WARNING_AGE_S = 24 * 3600;

/** Headers as the proxy sends them: one string per name, and never a length or framing of the upstream's. */
export function stringHeaders(headers: CachePolicy.Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'content-length' && name !== 'transfer-encoding') out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/** An entry with its per-entry headers prepared. */
export function storedAnswer(freshness: Freshness, policy: CachePolicy, body: Buffer): StoredAnswer {
  const { age: _age, date: _date, ...headers } = stringHeaders(policy.responseHeaders());
  return { freshness, policy, body, headers };
}

/** The answer from `stored` now: its prepared headers and its current Age (Node adds Date); a stale one with a Warning. */
export function fromStored(stored: StoredAnswer, outcome: Outcome): ProxyAnswer {
  const age = stored.policy.age();
  const aged = age > HEURISTIC_WARNING_AGE_S;
  const headers = aged ? stringHeaders(stored.policy.responseHeaders()) : stored.headers;
  return {
    status: 200,
    headers: outcome === 'stale' ? { ...headers, warning: '111 - "Revalidation Failed"' } : headers,
    ...(aged ? {} : { age: String(Math.round(age)) }),
    body: stored.body,
    outcome,
    serviceJson: true,
  };
}

/** `upstreamKeyHash`: the upstream key's hash (Upstream.keyHash), made once per proxy, not on every request. */
export function answerKey(upstreamBaseUrl: string, upstreamKeyHash: string, path: string, query: string): string {
  const q = query === '' ? '' : canonicalQuery(new URLSearchParams(query));
  return `${KEY_VERSION} ${upstreamBaseUrl} ${upstreamKeyHash} GET ${path}${q ? `?${q}` : ''}`;
}

/** Default bound of the bodies held: the hot part of a team's catalogue fits many times over, within the proxy's RSS budget. */
const HOT_ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

export class HotAnswers<V> {
  /** A Map keeps insertion order: re-inserting on use makes its first key the least recently used. */
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  /** Bytes held now. */
  bytes = 0;
  /** The key last used: used again (a hot record asked for over and over), it is already last in the order. */
  private newest: string | undefined;

  constructor(readonly maxBytes = HOT_ANSWERS_MAX_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, now the most recently used; undefined when not held. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  /** Holds `value` (of `bytes`), replacing any under `key`; one larger than the whole bound is not held at all. */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.newest = key;
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (key === this.newest) this.newest = undefined;
    this.bytes -= entry.bytes;
  }
}

export class AnswerStore {
  private readonly hot: HotAnswers<StoredAnswer>;

  constructor(
    readonly dir: string,
    private readonly log: (line: string) => void = () => {},
    hotBytes?: number,
  ) {
    this.hot = new HotAnswers(hotBytes);
  }

  /**
   * The checked entry under `key`; undefined when there is none or it is corrupt (then dropped).
   * The one held in memory when `fresh` holds for it, else the one on disk (then held in memory).
   */
  async get(key: string, fresh: (freshness: Freshness) => boolean): Promise<StoredAnswer | undefined> {
    const held = this.held(key, fresh);
    if (held) return held;
    const read = await this.read(key);
    if (read) this.hold(key, read);
    else this.hot.delete(key);
    return read;
  }

  /** The entry under `key` when it is held in memory and `fresh` holds for it. */
  held(key: string, fresh: (freshness: Freshness) => boolean): StoredAnswer | undefined {
    const held = this.hot.get(key);
    return held && fresh(held.freshness) ? held : undefined;
  }

  private hold(key: string, entry: StoredAnswer): void {
    // The body twice: a free client's cut of it (answer-writer.ts), never larger, lives as long as it is held.
    this.hot.set(key, entry, 2 * entry.body.length + key.length + ENTRY_OVERHEAD_BYTES);
  }

  private async read(key: string): Promise<StoredAnswer | undefined> {
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
        return storedAnswer(freshness, await storedPolicy(freshness), read.entry.body);
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

  /**
   * Stores a complete answer (a new one, or one a 304 confirmed) with its policy; a failed write
   * is logged and skipped (the answer still goes out, and is held in memory all the same).
   */
  async put(key: string, entry: StoredAnswer): Promise<void> {
    this.hold(key, entry);
    try {
      makePrivateDir(this.dir);
      await writeEntry(this.dir, key, { ...entry.freshness }, entry.body);
    } catch (err) {
      this.log(`cache: cannot store ${key}: ${(err as Error).message}`);
    }
  }
}
