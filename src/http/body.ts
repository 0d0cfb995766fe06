/**
 * Response bodies through undici's dispatch() and a handler of ours: each chunk goes straight to its
 * consumer, the socket paused while the consumer holds enough. Also the JSON layer reading a body whole
 * within its cap, and a body as a Readable for the team proxy.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { MalformedResponseError } from '../errors.js';
import { MAX_JSON_DEPTH, maxDepth } from '../catalogue/validate.js';
import { ERROR_BODY_CAP, JSON_SIZE_CAP } from '../defaults.js';
import { markNeverWritten } from './failures.js';
import type { BodyConsumer, BodyControl, DispatchedBody, Exchange, Incoming, Progress } from './exchange.js';

/** What one attempt is cancelled with: an emitter, so no listener is added per signal per attempt. */
export class CancelSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** The body of one dispatched request, between undici's handler and a BodySource; callbacks after the end are ignored. */
class DispatchBody implements DispatchedBody {
  private controller: Dispatcher.DispatchController | undefined;
  private consumer: BodyConsumer | undefined;
  /** Chunks that came before start(), the socket paused meanwhile. */
  private held: Buffer[] = [];
  /** How the body ended before start(); undefined while it goes on. */
  private ended: { err: unknown } | undefined;
  private over = false;
  private discarded = false;
  private readonly closed = new EventEmitter();
  private head: { resolve(d: Incoming): void; reject(err: unknown): void } | undefined;
  private pendingAbort: unknown;
  private readonly onAbort = (): void => this.abort(this.signal?.reason);

  constructor(
    private readonly signal: CancelSignal | undefined,
    private readonly mapError: (err: unknown) => unknown,
    private readonly progress: Progress | undefined,
  ) {}

  /** The head, or the failure (or the cancel's reason) before it. */
  headers(): Promise<Incoming> {
    return new Promise((resolve, reject) => {
      this.head = { resolve, reject };
      if (this.signal?.aborted) this.onAbort();
      else this.signal?.once('abort', this.onAbort);
    });
  }

  private abort(reason: unknown): void {
    if (this.over) return;
    if (this.head) {
      // Before the head the caller hears now, even while undici waits for a socket.
      const { reject } = this.head;
      this.head = undefined;
      reject(this.controller ? reason : markNeverWritten(reason));
    }
    if (this.controller) this.controller.abort(reason as Error);
    else this.pendingAbort = reason;
  }

  private close(err: unknown): void {
    if (this.over) return;
    this.over = true;
    this.signal?.off('abort', this.onAbort);
    if (this.head) {
      const { reject } = this.head;
      this.head = undefined;
      const failure = err ?? new Error('The response ended before its head.');
      reject(this.controller ? failure : markNeverWritten(failure));
    } else if (!this.discarded) {
      const consumer = this.consumer;
      const failure = err === undefined ? undefined : this.mapError(err);
      if (consumer) {
        if (failure === undefined) consumer.onEnd();
        else consumer.onError(failure);
      } else {
        this.ended = { err: failure };
      }
    }
    this.closed.emit('close');
  }

  readonly handler: Dispatcher.DispatchHandler = {
    onRequestStart: (controller) => {
      this.controller = controller;
      if (this.pendingAbort !== undefined || this.signal?.aborted) controller.abort((this.pendingAbort ?? this.signal?.reason) as Error);
    },
    onResponseStart: (_controller, statusCode, headers) => {
      const head = this.head;
      this.head = undefined;
      head?.resolve({ status: statusCode, headers, body: this });
    },
    onResponseData: (controller, chunk) => {
      // A media stream's whole life grows with its bytes.
      if (this.progress) this.progress.bytes += chunk.length;
      if (this.over || this.discarded) return;
      const consumer = this.consumer;
      if (consumer) {
        if (!consumer.onData(chunk)) controller.pause();
      } else {
        this.held.push(chunk);
        controller.pause();
      }
    },
    onResponseEnd: () => this.close(undefined),
    onResponseError: (_controller, err) => this.close(err),
  };

  start(consumer: BodyConsumer): BodyControl {
    this.consumer = consumer;
    const held = this.held;
    this.held = [];
    let flowing = true;
    for (const chunk of held) flowing = consumer.onData(chunk) && flowing;
    const ended = this.ended;
    if (ended) {
      this.ended = undefined;
      // Never from inside start(): the pump has not got its control back yet.
      queueMicrotask(() => {
        if (this.discarded) return;
        if (ended.err === undefined) consumer.onEnd();
        else consumer.onError(ended.err);
      });
    } else if (flowing && !this.over) {
      this.controller?.resume();
    }
    return {
      resume: () => {
        if (!this.over && !this.discarded) this.controller?.resume();
      },
      destroy: () => this.discard(),
    };
  }

  discard(): void {
    if (this.discarded) return;
    this.discarded = true;
    this.consumer = undefined;
    this.held = [];
    this.ended = undefined;
    // Thrown into undici to stop a body nobody reads any more; never shown.
    if (!this.over) this.abort(new Error('The body was discarded.'));
  }

  onClose(callback: () => void): void {
    if (this.over) callback();
    else this.closed.once('close', callback);
  }
}

/**
 * Sends `options` through `dispatcher.dispatch()`: the head, and the body as a BodySource. The signal
 * cancels it (before the head the promise rejects, after it the body fails); `progress` counts bytes.
 */
export function dispatchBody(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions & { signal?: CancelSignal; progress?: Progress },
  mapError: (err: unknown) => unknown = (err) => err,
): Promise<Incoming> {
  const { signal, progress, ...rest } = options;
  const body = new DispatchBody(signal, mapError, progress);
  const head = body.headers();
  dispatcher.dispatch(rest, body.handler);
  return head;
}

/** Reads `body` up to `cap` bytes; past it the rest is discarded unread and `truncated` is true. */
export function readWhole(body: DispatchedBody, cap: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const whole = (): Buffer => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    body.start({
      onData(chunk) {
        if (settled) return true;
        if (size + chunk.length > cap) {
          chunks.push(chunk.subarray(0, cap - size));
          size = cap;
          settled = true;
          resolve({ bytes: whole(), truncated: true });
          body.discard();
          return true;
        }
        size += chunk.length;
        chunks.push(chunk);
        return true;
      },
      // A discarded body calls neither (exchange.ts), and a promise settles once.
      onEnd: () => resolve({ bytes: whole(), truncated: false }),
      onError: reject,
    });
  });
}

/**
 * The layer: a 2xx body whole within JSON_SIZE_CAP (past it, MalformedResponseError); any other only up to
 * ERROR_BODY_CAP, to quote the server, so the status still decides the outcome.
 */
export function wholeBodies(next: Exchange, redact: (text: string) => string): Exchange<Buffer> {
  return async (request) => {
    const res = await next(request);
    const ok = res.status >= 200 && res.status < 300;
    const cap = ok ? JSON_SIZE_CAP : ERROR_BODY_CAP;
    const read = await readWhole(res.body, cap);
    if (read.truncated && ok) {
      throw new MalformedResponseError(`The answer to ${request.what} is larger than ${Math.round(cap / 1024)} KiB; refusing to read it.`, {
        hint: 'The base URL may point at something other than the exercise service.',
        details: { url: redact(request.url.href), limitBytes: cap },
      });
    }
    return { status: res.status, headers: res.headers, body: read.bytes };
  };
}

export function parseJsonBody(bytes: Buffer, contentType: string, url: URL, what: string, redact: (text: string) => string): unknown {
  const text = bytes.toString('utf8');
  const malformed = (message: string): MalformedResponseError =>
    new MalformedResponseError(message, {
      hint: 'Check the base URL points at the exercise service; run with --verbose to see the request.',
      details: { url: redact(url.href), contentType: contentType || undefined },
    });
  if (/^\s*$/.test(text)) throw malformed(`The service sent an empty answer to ${what}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (/html/i.test(contentType) || /^\s*</.test(text)) throw malformed(`The service answered ${what} with an HTML page, not JSON.`);
    throw malformed(`The answer to ${what} is not valid JSON (truncated or corrupt).`);
  }
  // Refused before anything walks it: deep nesting overflows every recursive walk.
  if (maxDepth(parsed, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    throw malformed(`The answer to ${what} nests deeper than ${MAX_JSON_DEPTH} levels; refusing to read it.`);
  return parsed;
}

/** A dispatched body as a Readable: a chunk push() refuses pauses the source until _read() asks again. */
export function bodyReadable(body: DispatchedBody, mapError: (err: unknown) => Error): Readable {
  let control: BodyControl | undefined;
  let paused = false;
  const readable = new Readable({
    read() {
      if (paused) {
        paused = false;
        control?.resume();
      }
    },
    destroy(err, callback) {
      control?.destroy();
      callback(err);
    },
  });
  control = body.start({
    onData(chunk) {
      if (readable.push(chunk)) return true;
      paused = true;
      return false;
    },
    onEnd: () => readable.push(null),
    onError: (err) => readable.destroy(mapError(err)),
  });
  return readable;
}
