/**
 * A media body handed over chunk by chunk: one request sent with undici's dispatch() and a
 * handler of its own, so each chunk read from the socket goes to the body pump (and on to the
 * file descriptor, or into memory for a JSON answer) with no Readable in between — no stream
 * buffering, no 'data' events, no second copy of the highWaterMark. Every request of the
 * transport goes this way (attempt.ts); the layers above it (exchange.ts) add the rest.
 *
 * Flow control is undici's own: the handler pauses the socket (controller.pause()) when the
 * pump says it holds enough, and resume() lets it read again. Chunks that arrive before the
 * pump has started (between the head and the caller's decision) are held, with the socket
 * paused, so at most one socket read waits in memory then.
 */
import type { Dispatcher } from 'undici';
import type { BodyConsumer, BodyControl, BodySource } from './body-source.js';
import { markNeverWritten } from './network-errors.js';

/** The signal an attempt is cancelled with (attempt.ts AttemptSignal): an emitter with `aborted` and `reason`. */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/** A response body as a BodySource; discard() lets go of it unread (no callback follows). */
export interface DispatchedBody extends BodySource {
  discard(): void;
  /** Runs `callback` once the body is over: read to its end, failed, discarded. At once if it already is. */
  onClose(callback: () => void): void;
}

export interface Dispatched {
  statusCode: number;
  /** Lower-case names, as undici parsed them. */
  headers: Record<string, string | string[] | undefined>;
  body: DispatchedBody;
}

type Controller = Dispatcher.DispatchController;

/** Thrown into undici to stop a body nobody reads any more; never shown. */
class Discarded extends Error {
  constructor() {
    super('The body was discarded.');
    this.name = 'Discarded';
  }
}

/**
 * The body of one dispatched request: the undici handler on one side, a BodySource on the
 * other. Every undici callback after the end (or a discard) is ignored. A failure reaches
 * the consumer as `mapError` makes it.
 */
class DispatchBody implements DispatchedBody {
  private controller: Controller | undefined;
  private consumer: BodyConsumer | undefined;
  /** Chunks that came before start(), the socket paused meanwhile. */
  private held: Buffer[] = [];
  /** How the body ended before start(): undefined while it goes on; { err: undefined } for a clean end. */
  private ended: { err: unknown } | undefined;
  private over = false;
  private discarded = false;
  private closeCallbacks: (() => void)[] = [];
  private head: { resolve(d: Dispatched): void; reject(err: unknown): void } | undefined;
  private readonly onAbort = (): void => this.abort(this.signal?.reason);

  constructor(
    private readonly signal: CancelSignal | undefined,
    private readonly mapError: (err: unknown) => unknown,
  ) {}

  /** Resolves with the head, or rejects with the failure (or the cancel signal's reason) before it. */
  headers(): Promise<Dispatched> {
    return new Promise((resolve, reject) => {
      this.head = { resolve, reject };
      if (this.signal?.aborted) this.onAbort();
      else this.signal?.once('abort', this.onAbort);
    });
  }

  private abort(reason: unknown): void {
    if (this.over) return;
    if (this.head) {
      // Before the head: the caller hears now, even while undici still waits for a socket
      // (then onRequestStart aborts it before a byte is written).
      const { reject } = this.head;
      this.head = undefined;
      reject(this.controller ? reason : markNeverWritten(reason));
    }
    if (this.controller) this.controller.abort(reason as Error);
    else this.pendingAbort = reason;
  }

  private pendingAbort: unknown;

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
    const callbacks = this.closeCallbacks;
    this.closeCallbacks = [];
    for (const callback of callbacks) callback();
  }

  readonly handler: Dispatcher.DispatchHandler = {
    onRequestStart: (controller) => {
      this.controller = controller;
      if (this.pendingAbort !== undefined || this.signal?.aborted) controller.abort((this.pendingAbort ?? this.signal?.reason) as Error);
    },
    onResponseStart: (_controller, statusCode, headers) => {
      const head = this.head;
      this.head = undefined;
      head?.resolve({ statusCode, headers, body: this });
    },
    onResponseData: (controller, chunk) => {
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
    if (!this.over) this.abort(new Discarded());
  }

  onClose(callback: () => void): void {
    if (this.over) callback();
    else this.closeCallbacks.push(callback);
  }
}

/**
 * Sends `options` through `dispatcher.dispatch()` and resolves with the response's head and
 * its body as a BodySource. `options.signal` (an AttemptSignal) cancels it: before the head the
 * promise rejects with its reason, after it the body fails with it (as `mapError` makes it).
 * `progress` is passed on to the dispatcher's interceptors (attempt.ts counts media bytes).
 */
export function dispatchBody(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions & { signal?: CancelSignal; progress?: unknown },
  mapError: (err: unknown) => unknown = (err) => err,
): Promise<Dispatched> {
  const { signal, ...rest } = options;
  const body = new DispatchBody(signal, mapError);
  const head = body.headers();
  dispatcher.dispatch(rest, body.handler);
  return head;
}
