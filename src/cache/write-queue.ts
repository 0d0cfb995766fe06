/**
 * When the response cache's writes happen (ResponseCache says what is written): a write queued
 * by later() runs two turns of the event loop later, while a listing's next request is out.
 * Writes of one key keep their order, and a read of a key comes after them.
 */
export class WriteQueue {
  /** Writes queued by later(), in order. */
  private queued: Array<() => unknown> = [];
  private scheduled = false;
  /** Writes under way, by key; settled, never rejected. */
  private readonly pending = new Map<string, Promise<void>>();

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

  /** Runs `write` for `keys` after any write of those keys under way; resolves (or rejects) with it. */
  run<T>(keys: readonly string[], write: () => Promise<T>): Promise<T> {
    const result = Promise.all(keys.map((key) => this.pending.get(key) ?? Promise.resolve())).then(write);
    const settled = result.then(
      () => {},
      () => {},
    );
    for (const key of keys) this.pending.set(key, settled);
    void settled.then(() => {
      for (const key of keys) if (this.pending.get(key) === settled) this.pending.delete(key);
    });
    return result;
  }

  /** Runs what is queued and waits for every write under way. */
  async flush(): Promise<void> {
    this.runQueued();
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }
}
