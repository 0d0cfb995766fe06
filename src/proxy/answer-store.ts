/**
 * The proxy's shared store of upstream JSON answers, in the CLI's store format: the exact bytes and
 * their freshness (http-cache-semantics), keyed by the upstream base URL and key hash, the path and
 * query, so one upstream account's answers serve every client (what a plan may see is cut at answer
 * time). The entries last used are also held in memory, bounded by bytes, least recently used out
 * first; the disk stays the store of record, read again for an entry no longer fresh.
 */
import type CachePolicy from 'http-cache-semantics';
import { makePrivateDir, readEntry, removeEntry, writeEntry, type Freshness, parseFreshness } from '../cache/store-files.js';
import { storedPolicy } from '../cache/headers.js';
import { canonicalQuery } from '../cache/cached-get.js';
import type { Outcome, ProxyAnswer } from './answers.js';

/** Bumped when an entry's meaning changes: older ones are never read. */
const KEY_VERSION = 'proxy-v1';

export interface StoredAnswer {
  freshness: Freshness;
  /** The policy of freshness.policy, for the headers of the answer served from it. */
  policy: CachePolicy;
  body: Buffer;
  /** The policy's response headers but Age and Date, made once per entry. */
  headers: Readonly<Record<string, string>>;
}

/** Roughly what an entry costs in memory beside its body, for the bound. */
const ENTRY_OVERHEAD_BYTES = 2048;
/** Past this age a heuristic-expiration Warning may be added: such headers are made per answer. */
const HEURISTIC_WARNING_AGE_S = 24 * 3600;

/** Headers as the proxy sends them: one string per name, never the upstream's framing. */
export function stringHeaders(headers: CachePolicy.Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'content-length' && name !== 'transfer-encoding') out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

export function storedAnswer(freshness: Freshness, policy: CachePolicy, body: Buffer): StoredAnswer {
  const { age: _age, date: _date, ...headers } = stringHeaders(policy.responseHeaders());
  return { freshness, policy, body, headers };
}

/** The answer from `stored` now: its headers and current Age; a stale one with a Warning. */
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

/** `upstreamKeyHash`: made once per proxy. */
export function answerKey(upstreamBaseUrl: string, upstreamKeyHash: string, path: string, query: string): string {
  const q = query === '' ? '' : canonicalQuery(new URLSearchParams(query));
  return `${KEY_VERSION} ${upstreamBaseUrl} ${upstreamKeyHash} GET ${path}${q ? `?${q}` : ''}`;
}

/** Default bound of the bodies held in memory: the hot part of a team's catalogue fits many times over. */
const HOT_ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

export class HotAnswers<V> {
  /** Insertion order: re-inserting on use makes the first key the least recently used. */
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  bytes = 0;
  /** The key last used, already last in the order. */
  private newest: string | undefined;

  constructor(readonly maxBytes = HOT_ANSWERS_MAX_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, now the most recently used. */
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

  /** Holds `value`, replacing any under `key`; one larger than the bound is not held. */
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

  /** The checked entry under `key` (a corrupt one dropped): from memory when `fresh` holds, else from disk. */
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
    // The body twice: a free client's cut of it lives as long as it is held.
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

  /** Stores a complete answer with its policy; a failed write is logged and skipped (held in memory all the same). */
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
