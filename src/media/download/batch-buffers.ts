/**
 * The buffers the body pump gathers a download's bytes into (two per download: one being
 * written, one filling), kept for the next download once one is over instead of being left to
 * the garbage collector. A download's buffers live as long as it does, so V8 moves them to its
 * old generation, which it collects rarely: a new pair per file would pile up there, 40 files
 * of a bulk download adding tens of megabytes of resident memory before a full collection.
 * Reused, the pairs in use are all there is: two per download at once.
 */

/**
 * Each batch buffer's size: a write (one system call) carries up to this much. 256 KiB: two
 * per download, so four downloads hold 2 MiB (the 1 MiB per download the pump queued before
 * made 8). 128 KiB was measured too: about 3 MB less peak RSS at concurrency 4, for twice the
 * write calls.
 */
export const BATCH_BYTES = 256 * 1024;

/** Buffers kept for reuse at most: the pairs of four downloads (the default concurrency); more are let go. */
const KEEP = 8;

const free: Buffer[] = [];

/** A buffer of `size` bytes (a kept one when there is one of that size), its contents undefined. */
export function takeBatchBuffer(size: number): Buffer {
  const at = free.findIndex((b) => b.length === size);
  if (at >= 0) return free.splice(at, 1)[0]!;
  // Not from Node's shared 8 KiB pool: a buffer of its own, whole, to hand back later.
  return Buffer.allocUnsafeSlow(size);
}

/** Hands `buffer` back once nothing reads or writes it any more (no write of it under way). */
export function giveBackBatchBuffer(buffer: Buffer): void {
  if (free.length < KEEP && !free.includes(buffer)) free.push(buffer);
}
