/**
 * The body pump: copies a response body into a SinkWriter. Chunks that arrive while a write is
 * under way are gathered into a batch buffer and go out together in the next one (one write
 * per batch on a file), so a fast connection costs a few system calls per megabyte, not one per
 * socket read; the body is paused while both batch buffers are taken, which bounds the memory
 * a download holds whatever the connection's speed.
 *
 * The body arrives through a BodySource: callbacks a transport drives (onData returning false
 * to pause, then resume()), such as undici's dispatch handler (onData/onComplete/onError and
 * its resume), without a stream in between.
 */
import { MAGIC_BYTES } from '../verify.js';
import type { BodyControl, BodySource } from '../../http/exchange.js';
import type { SinkWriter } from './types.js';
import { readSpent } from '../../http/read-buffers.js';

export type { BodyConsumer, BodySource } from '../../http/exchange.js';

/**
 * Each batch buffer's size: a write (one system call) carries up to this much. 256 KiB: two
 * per download, so four downloads hold 2 MiB (the 1 MiB per download the pump queued before
 * made 8). 128 KiB was measured too: about 3 MB less peak RSS at concurrency 4, for twice the
 * write calls.
 */
const BATCH_BYTES = 256 * 1024;

/** Buffers kept for reuse at most: the pairs of four downloads (the default concurrency); more are let go. */
const KEEP = 8;

/**
 * Batch buffers kept for the next download once one is over instead of being left to the
 * garbage collector. A download's buffers live as long as it does, so V8 moves them to its old
 * generation, which it collects rarely: a new pair per file would pile up there, 40 files of a
 * bulk download adding tens of megabytes of resident memory before a full collection. Reused,
 * the pairs in use are all there is: two per download at once.
 */
const free: Buffer[] = [];

/** A buffer of `size` bytes (a kept one when there is one of that size), its contents undefined. */
function takeBatchBuffer(size: number): Buffer {
  const at = free.findIndex((b) => b.length === size);
  if (at >= 0) return free.splice(at, 1)[0]!;
  // Not from Node's shared 8 KiB pool: a buffer of its own, whole, to hand back later.
  return Buffer.allocUnsafeSlow(size);
}

/** Hands `buffer` back once nothing reads or writes it any more (no write of it under way). */
function giveBackBatchBuffer(buffer: Buffer): void {
  if (free.length < KEEP && !free.includes(buffer)) free.push(buffer);
}

export interface PumpOptions {
  /** Each chunk's size as it arrives (progress). */
  onChunk?(bytes: number): void;
  /**
   * Judges the first bytes (at least MAGIC_BYTES, or the whole body if shorter) before any byte
   * is written; throws to refuse. Called synchronously with a view it must not keep.
   */
  checkHead?(first: Buffer): void;
  /** The most bytes this body may bring; one more and the pump stops and rejects with tooLarge(). */
  maxBytes?: number;
  tooLarge?(): Error;
  /** The size of each of the two batch buffers (default BATCH_BYTES): the most one write carries. */
  batchBytes?: number;
}

export interface PumpResult {
  /** Bytes that arrived. */
  received: number;
  /** The body's failure, when it failed: every byte that arrived before it was still written. */
  sourceError?: unknown;
}

/**
 * Copies `source` into `writer`. A failure of the source is not thrown: the bytes that arrived
 * are written (they become the resume point) and the failure is returned as `sourceError`. A
 * failure of the writer, `checkHead` refusing the first bytes or the body passing `maxBytes`
 * rejects, after the write under way (if any) has finished, so the sink may close its file.
 *
 * Each chunk is copied into one of two batch buffers (takeBatchBuffer): one is written while
 * the other fills, and the body is paused while both are full. So a download holds two buffers
 * whatever the connection's speed, each write is one buffer (one system call), and no chunk of
 * the body outlives the call that brought it — except those queued while both buffers are
 * taken. Each chunk the pump no longer holds is reported (readSpent, http/read-buffers.ts), so
 * the socket's read buffer behind it may be read into again: a download cycles through a few
 * read buffers instead of leaving one per read to the collector.
 */
export function pumpBody(source: BodySource, writer: SinkWriter, options: PumpOptions = {}): Promise<PumpResult> {
  return new Promise((resolve, reject) => {
    const size = Math.max(options.batchBytes ?? BATCH_BYTES, MAGIC_BYTES);
    /** The buffer filling, and the one free for the next swap (none while a write is under way: it is the one being written). */
    let gather: Buffer | undefined = takeBatchBuffer(size);
    let spare: Buffer | undefined = takeBatchBuffer(size);
    let filled = 0;
    /** What did not fit while both buffers were taken, in order (the source was asked to pause). */
    let pending: Buffer[] = [];
    let checking = options.checkHead !== undefined;
    let writing = false;
    let paused = false;
    let sourceDone = false;
    let sourceError: unknown;
    let failed = false;
    let failure: unknown;
    let settled = false;
    let received = 0;
    let control: BodyControl | undefined;

    const settleIfIdle = (): void => {
      if (settled || writing || (!failed && !(sourceDone && filled === 0 && pending.length === 0))) return;
      settled = true;
      // The buffers go back for the next download: nothing writes them any more.
      for (const buffer of [gather, spare]) if (buffer) giveBackBatchBuffer(buffer);
      gather = spare = undefined;
      if (failed) reject(failure);
      else resolve(sourceError === undefined ? { received } : { received, sourceError });
    };
    const fail = (err: unknown): void => {
      if (!failed) {
        failed = true;
        failure = err;
        filled = 0;
        pending = [];
        if (!sourceDone) {
          sourceDone = true;
          control?.destroy();
        }
      }
      settleIfIdle();
    };
    /** Copies what fits of `chunk` into the gathering buffer; returns the rest, if any. */
    const copyIn = (chunk: Buffer): Buffer | undefined => {
      const n = Math.min(chunk.length, size - filled);
      chunk.copy(gather!, filled, 0, n);
      filled += n;
      return n < chunk.length ? chunk.subarray(n) : undefined;
    };
    const takePending = (): void => {
      while (pending.length > 0 && filled < size) {
        const rest = copyIn(pending[0]!);
        if (rest) pending[0] = rest;
        else readSpent(pending.shift()!);
      }
    };
    const flush = (): void => {
      if (failed || writing || checking || filled === 0) {
        settleIfIdle();
        return;
      }
      const inFlight = gather!;
      const batch = inFlight.subarray(0, filled);
      gather = spare;
      spare = undefined;
      filled = 0;
      takePending();
      writing = true;
      writer.write(batch, (err) => {
        writing = false;
        spare = inFlight;
        if (err) {
          fail(err);
          return;
        }
        flush();
        if (paused && !sourceDone && pending.length === 0) {
          paused = false;
          control?.resume();
        }
      });
    };
    /** Judges the first bytes gathered; false when they were refused. */
    const releaseHead = (): boolean => {
      checking = false;
      try {
        options.checkHead!(gather!.subarray(0, filled));
      } catch (err) {
        fail(err);
        return false;
      }
      return true;
    };

    /** Takes `chunk` in; false asks the source to pause. A true answer means no view of the chunk is kept. */
    const accept = (chunk: Buffer): boolean => {
      if (failed || settled) return false;
      if (chunk.length === 0) return true;
      received += chunk.length;
      if (options.maxBytes !== undefined && received > options.maxBytes) {
        options.onChunk?.(chunk.length);
        fail(options.tooLarge?.() ?? new Error(`The body passed ${options.maxBytes} bytes.`));
        return false;
      }
      if (pending.length > 0) {
        pending.push(chunk);
      } else {
        const rest = copyIn(chunk);
        if (rest) pending.push(rest);
      }
      // Told only once the chunk is ours: a listener that cancels the body (an abort) ends it
      // from inside this call, and the chunk is then written with the rest.
      options.onChunk?.(chunk.length);
      if (failed) return false;
      if (checking && filled >= MAGIC_BYTES && !releaseHead()) return false;
      flush();
      if (pending.length > 0) {
        paused = true;
        return false;
      }
      return true;
    };

    control = source.start({
      onData(chunk) {
        // The socket's read buffer behind the chunk may be read into again only when nothing of it is kept here.
        const accepted = accept(chunk);
        if (accepted) readSpent(chunk);
        return accepted;
      },
      onEnd() {
        if (failed || sourceDone) return;
        sourceDone = true;
        if (checking && filled > 0 && !releaseHead()) return;
        flush();
      },
      onError(err) {
        if (failed || sourceDone) return;
        sourceDone = true;
        sourceError = err;
        if (checking) {
          // First bytes still held were never judged: they are not kept.
          filled = 0;
          pending = [];
        }
        flush();
      },
    });
  });
}

/**
 * Reads at most `cap` bytes of `source` (an error body, to quote the server's message), then
 * lets go of the rest. Resolves with what arrived, also when the body failed part-way.
 */
export function readSmall(source: BodySource, cap: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, size));
    };
    const control = source.start({
      onData(chunk) {
        if (done) return false;
        const room = cap - size;
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
        size += Math.min(chunk.length, room);
        if (size < cap) return true;
        finish();
        // After start() has returned: a source may deliver chunks it held from inside start().
        queueMicrotask(() => control.destroy());
        return false;
      },
      onEnd: finish,
      onError: finish,
    });
  });
}
