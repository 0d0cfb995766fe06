/**
 * When and how the response cache's writes happen (ResponseCache's policy says what is
 * written): a write queued by putLater() runs two turns of the event loop later, while a
 * listing's next request is out; an entry whose bytes the store holds already is one index line
 * appended at once (store-write-sync.ts); new content, a file and its directories, goes to the
 * thread pool (store-write.ts), where a wait on the file system's journal does not hold the
 * event loop. Writes of one key keep their order, and a read of a key comes after them.
 */
import type { EntryMeta } from './freshness.js';
import { bucketNeedsCompacting, compactBucket, writeEntry } from './store-write.js';
import { linkIfStored } from './store-write-sync.js';

/** An entry written: its content's integrity and size. */
export type Written = { integrity: string; size: number };

export class StoreWrites {
  /** Writes queued by later(), in order. */
  private queued: Array<() => unknown> = [];
  private scheduled = false;
  /** Writes of new content under way on the thread pool, by key; settled, never rejected. */
  private readonly pending = new Map<string, Promise<void>>();
  /** Bucket compactions under way, one at a time. */
  private compacting: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Runs `write` two turns of the event loop from now: undici writes the next request of a
   * listing from an Immediate queued after this one (it lets an idle keep-alive socket show a
   * close first), so one turn would write before that request goes out, the second writes
   * while its answer is awaited.
   */
  later(write: () => unknown): void {
    this.queued.push(write);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => setImmediate(() => this.runQueued()));
  }

  /** Runs the queued writes now, oldest first (each logs its own failure): before any read or other write of the store. */
  runQueued(): void {
    this.scheduled = false;
    if (this.queued.length === 0) return;
    const writes = this.queued;
    this.queued = [];
    for (const write of writes) write();
  }

  /** Resolves once the queued writes and those of `key` under way are done. */
  async settled(key: string): Promise<void> {
    this.runQueued();
    await this.pending.get(key);
  }

  /**
   * Writes `data` under `key`: at once when the store holds the bytes already, else on the
   * thread pool behind any write of the key under way. Throws, or rejects, on a file-system error.
   */
  write(key: string, data: Buffer, meta: EntryMeta): Written | Promise<Written> {
    const before = this.pending.get(key);
    if (before === undefined) {
      const linked = linkIfStored(this.path, key, data, meta);
      if (linked) return linked;
    }
    const write = (before ?? Promise.resolve()).then(() => writeEntry(this.path, key, data, meta));
    const settled = write.then(
      () => {},
      () => {},
    );
    this.pending.set(key, settled);
    void settled.then(() => {
      if (this.pending.get(key) === settled) this.pending.delete(key);
    });
    return write;
  }

  /** Compacts `key`'s bucket, through cacache (rare), when a read saw it at `bucketBytes`, grown by many rewrites. */
  compact(key: string, bucketBytes: number | undefined): void {
    if (bucketBytes === undefined || !bucketNeedsCompacting(bucketBytes)) return;
    this.compacting = this.compacting.then(() =>
      compactBucket(this.path, key).catch((err: unknown) => this.log(`cache: cannot compact the entry for ${key}: ${(err as Error).message}`)),
    );
  }

  /** Resolves once the compactions started are done. */
  compacted(): Promise<void> {
    return this.compacting;
  }

  /** Runs what is queued and waits for every write and compaction under way. */
  async flush(): Promise<void> {
    this.runQueued();
    while (this.pending.size > 0) await Promise.all(this.pending.values());
    await this.compacting;
  }
}
