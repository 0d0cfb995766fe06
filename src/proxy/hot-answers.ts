/**
 * The proxy's hot answers: the entries of the shared store (answer-store.ts) last used, held in
 * memory so a cache hit is a lookup and one write, not a file read and a policy rebuilt (as
 * nginx's proxy_cache keeps its keys zone in shared memory and hot files in the page cache).
 * Bounded by bytes, least recently used out first: a few large lists must not push the
 * process's memory up without limit, and the disk store still holds everything.
 */

/** Default bound of the bodies held: the hot part of a team's catalogue fits many times over, within the proxy's RSS budget. */
export const HOT_ANSWERS_MAX_BYTES = 16 * 1024 * 1024;

export class HotAnswers<V> {
  /** A Map keeps insertion order: re-inserting on use makes its first key the least recently used. */
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private held = 0;
  /** The key last used: used again (a hot record asked for over and over), it is already last in the order. */
  private newest: string | undefined;

  constructor(readonly maxBytes = HOT_ANSWERS_MAX_BYTES) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

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
    this.held += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (key === this.newest) this.newest = undefined;
    this.held -= entry.bytes;
  }
}
