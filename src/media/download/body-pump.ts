/**
 * The body pump: streams a response body into a SinkWriter, one write at a time, in order. Chunks that
 * arrive during a write queue for the next one; past QUEUE_BYTES or QUEUE_CHUNKS the body (and the
 * socket) is paused until the writer catches up, so memory stays bounded whatever the link's speed.
 */
import { MAGIC_BYTES } from '../verify.js';
import type { BodyControl, BodySource } from '../../http/exchange.js';
import type { SinkWriter } from './types.js';

export type { BodyConsumer, BodySource } from '../../http/exchange.js';

/** Bytes waiting past which the body is paused. */
const QUEUE_BYTES = 512 * 1024;
/** Chunks waiting past which the body is paused too, however small (a server may send a byte per chunk). */
const QUEUE_CHUNKS = 1024;

export interface PumpOptions {
  onChunk?(bytes: number): void;
  /** Judges the first bytes (at least MAGIC_BYTES) before any is written; throws to refuse. The view must not be kept. */
  checkHead?(first: Buffer): void;
  /** The most bytes this body may bring; one more rejects with tooLarge(). */
  maxBytes?: number;
  tooLarge?(): Error;
}

export interface PumpResult {
  received: number;
  /** The body's failure: every byte that arrived before it was still written. */
  sourceError?: unknown;
}

/**
 * Copies `source` into `writer`. A source failure is returned as `sourceError` once the bytes that
 * arrived are written (the resume point); a writer failure, a refused head or passing `maxBytes`
 * rejects after the write under way has finished, so the sink may close its file.
 */
export function pumpBody(source: BodySource, writer: SinkWriter, options: PumpOptions = {}): Promise<PumpResult> {
  return new Promise((resolve, reject) => {
    let queue: Buffer[] = [];
    let queued = 0;
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

    const full = (): boolean => queued >= QUEUE_BYTES || queue.length >= QUEUE_CHUNKS;
    const settleIfIdle = (): void => {
      if (settled || writing || (!failed && !(sourceDone && queue.length === 0))) return;
      settled = true;
      if (failed) reject(failure);
      else resolve(sourceError === undefined ? { received } : { received, sourceError });
    };
    const fail = (err: unknown): void => {
      if (!failed) {
        failed = true;
        failure = err;
        queue = [];
        queued = 0;
        if (!sourceDone) {
          sourceDone = true;
          control?.destroy();
        }
      }
      settleIfIdle();
    };
    /** Writes every chunk queued, unless a write is under way (its end writes the rest). */
    const writeNext = (): void => {
      if (failed || writing || checking || queue.length === 0) {
        settleIfIdle();
        return;
      }
      const chunks = queue;
      queue = [];
      queued = 0;
      writing = true;
      writer.write(chunks, (err) => {
        writing = false;
        if (err) {
          fail(err);
          return;
        }
        writeNext();
        if (paused && !sourceDone && !full()) {
          paused = false;
          control?.resume();
        }
      });
    };
    /** Judges the first bytes queued; false when they were refused. */
    const releaseHead = (): boolean => {
      checking = false;
      try {
        options.checkHead!(queue.length === 1 ? queue[0]! : Buffer.concat(queue, queued));
      } catch (err) {
        fail(err);
        return false;
      }
      return true;
    };

    const accept = (chunk: Buffer): boolean => {
      if (failed || settled) return false;
      if (chunk.length === 0) return true;
      received += chunk.length;
      if (options.maxBytes !== undefined && received > options.maxBytes) {
        options.onChunk?.(chunk.length);
        fail(options.tooLarge?.() ?? new Error(`The body passed ${options.maxBytes} bytes.`));
        return false;
      }
      queue.push(chunk);
      queued += chunk.length;
      // Told once queued: a listener that aborts ends the body from inside this call, and the chunk is still written.
      options.onChunk?.(chunk.length);
      if (failed) return false;
      if (checking && queued >= MAGIC_BYTES && !releaseHead()) return false;
      writeNext();
      if (!full()) return true;
      paused = true;
      return false;
    };

    control = source.start({
      onData: accept,
      onEnd() {
        if (failed || sourceDone) return;
        sourceDone = true;
        if (checking && queued > 0 && !releaseHead()) return;
        writeNext();
      },
      onError(err) {
        if (failed || sourceDone) return;
        sourceDone = true;
        sourceError = err;
        if (checking) {
          // First bytes still held were never judged: they are not kept.
          queue = [];
          queued = 0;
        }
        writeNext();
      },
    });
  });
}

/** Reads at most `cap` bytes of `source` (an error body, to quote), then lets go of the rest; also when it failed part-way. */
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
        // After start() returned: a source may deliver chunks it held from inside start().
        queueMicrotask(() => control.destroy());
        return false;
      },
      onEnd: finish,
      onError: finish,
    });
  });
}
