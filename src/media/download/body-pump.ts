/**
 * The body pump: copies a response body into a SinkWriter. Chunks that arrive while a write is
 * under way are gathered and go out together in the next one (one writev per batch on a file),
 * so a fast connection costs a few system calls per megabyte, not one per socket read; the
 * body is paused while more than `highWaterMark` bytes wait, which bounds the memory a download
 * holds whatever the connection's speed.
 *
 * The body arrives through a BodySource: callbacks a transport drives (onData returning false
 * to pause, then resume()). A Node Readable is one (readableSource); a transport that hands over
 * chunks itself, such as undici's dispatch handler (onData/onComplete/onError and its resume),
 * plugs in the same way without a stream in between.
 */
import { type Readable, finished } from 'node:stream';
import { MAGIC_BYTES } from '../verify.js';
import type { BodyControl, BodySource } from '../../http/body-source.js';
import type { SinkWriter } from './sink.js';

export type { BodyConsumer, BodySource } from '../../http/body-source.js';

/** Lets go of a body not wanted (destroying a response may emit an error: silence it). */
export function discardBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** A Node Readable (a node:http response body, say) as a BodySource. */
export function readableSource(body: Readable): BodySource {
  return {
    start(consumer) {
      let over = false;
      const onData = (chunk: Buffer): void => {
        if (!consumer.onData(chunk)) body.pause();
      };
      const detach = (): void => {
        over = true;
        body.off('data', onData);
        stopWatching();
      };
      body.on('data', onData);
      // finished() also reports a body that failed or ended before it got here, and a close without an end.
      const stopWatching = finished(body, { writable: false }, (err) => {
        if (over) return;
        detach();
        if (err) consumer.onError(err);
        else consumer.onEnd();
      });
      return {
        resume: () => {
          if (!over) body.resume();
        },
        destroy: () => {
          detach();
          discardBody(body);
        },
      };
    },
  };
}

export interface PumpOptions {
  /** Each chunk's size as it arrives (progress). */
  onChunk?(bytes: number): void;
  /** Judges the first MAGIC_BYTES (or the whole body, if shorter) before any byte is written; throws to refuse. */
  checkHead?(first: Buffer): void;
  /** The most bytes this body may bring; one more and the pump stops and rejects with tooLarge(). */
  maxBytes?: number;
  tooLarge?(): Error;
  /** Bytes waiting to be written before the body is paused. */
  highWaterMark?: number;
}

export interface PumpResult {
  /** Bytes that arrived. */
  received: number;
  /** The body's failure, when it failed: every byte that arrived before it was still written. */
  sourceError?: unknown;
}

/**
 * 1 MiB: a batch is written in one system call while the socket fills the next one, and a
 * download holds at most about twice this (one batch being written, one gathering). 4 MiB was
 * measured too: no faster, and 15 MB more peak RSS over four concurrent downloads.
 */
export const PUMP_HIGH_WATER_MARK = 1024 * 1024;

/**
 * Copies `source` into `writer`. A failure of the source is not thrown: the bytes that arrived
 * are written (they become the resume point) and the failure is returned as `sourceError`. A
 * failure of the writer, `checkHead` refusing the first bytes or the body passing `maxBytes`
 * rejects, after the write under way (if any) has finished, so the sink may close its file.
 */
export function pumpBody(source: BodySource, writer: SinkWriter, options: PumpOptions = {}): Promise<PumpResult> {
  return new Promise((resolve, reject) => {
    const highWaterMark = options.highWaterMark ?? PUMP_HIGH_WATER_MARK;
    let checking = options.checkHead !== undefined;
    let head: Buffer[] = [];
    let headBytes = 0;
    let queue: Buffer[] = [];
    let queued = 0;
    let inFlight = 0;
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
      if (settled || writing) return;
      if (failed) {
        settled = true;
        reject(failure);
      } else if (sourceDone && queue.length === 0) {
        settled = true;
        resolve(sourceError === undefined ? { received } : { received, sourceError });
      }
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
    const flush = (): void => {
      if (failed || writing || queue.length === 0) {
        settleIfIdle();
        return;
      }
      const batch = queue;
      inFlight = queued;
      queue = [];
      queued = 0;
      writing = true;
      writer.write(batch, (err) => {
        writing = false;
        inFlight = 0;
        if (err) {
          fail(err);
          return;
        }
        if (paused && !sourceDone && queued < highWaterMark) {
          paused = false;
          control?.resume();
        }
        flush();
      });
    };
    const enqueue = (chunk: Buffer): void => {
      queue.push(chunk);
      queued += chunk.length;
      flush();
    };
    /** Judges and queues the held first bytes; false when they were refused. */
    const releaseHead = (): boolean => {
      const first = head.length === 1 ? head[0]! : Buffer.concat(head);
      head = [];
      checking = false;
      try {
        options.checkHead!(first);
      } catch (err) {
        fail(err);
        return false;
      }
      enqueue(first);
      return true;
    };

    control = source.start({
      onData(chunk) {
        if (failed) return false;
        if (chunk.length === 0) return true;
        received += chunk.length;
        options.onChunk?.(chunk.length);
        if (options.maxBytes !== undefined && received > options.maxBytes) {
          fail(options.tooLarge?.() ?? new Error(`The body passed ${options.maxBytes} bytes.`));
          return false;
        }
        if (checking) {
          head.push(chunk);
          headBytes += chunk.length;
          if (headBytes >= MAGIC_BYTES && !releaseHead()) return false;
        } else {
          enqueue(chunk);
        }
        if (queued + inFlight >= highWaterMark) {
          paused = true;
          return false;
        }
        return true;
      },
      onEnd() {
        if (failed || sourceDone) return;
        sourceDone = true;
        if (checking && headBytes > 0 && !releaseHead()) return;
        settleIfIdle();
      },
      onError(err) {
        if (failed || sourceDone) return;
        sourceDone = true;
        sourceError = err;
        head = []; // first bytes still held were never judged: they are not kept
        settleIfIdle();
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
