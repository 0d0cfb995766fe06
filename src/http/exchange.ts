/**
 * The transport's contracts, types only. An Exchange sends one GET and resolves with the answer's
 * head and body; each layer wraps the one below. transport.ts stacks them, from the top:
 *
 *   retrying       (transport.ts) the one retry policy, a --verbose line per attempt (JSON)
 *   wholeBodies    (body.ts)      the body read whole within its cap (JSON)
 *   counting       (counting.ts)  the request ledger's hooks, before and after each attempt
 *   Attempts.send  (attempt.ts)   one attempt over the one undici dispatcher (media streams: these two only)
 *
 * A request carries what the layers below need as data, never callbacks into the layer above. A
 * body is handed over chunk by chunk; its consumer may pause it (onData returning false), resume()
 * or destroy() it.
 */

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** Body bytes received so far by a media stream, whose whole life grows with them (config/time-limits.ts mediaMs). */
export interface Progress {
  bytes: number;
  /** The least average rate mediaMs asks; MEDIA_MIN_BYTES_PER_SECOND when absent (--limit-rate lowers it). */
  minBytesPerSecond?: number;
}

/** What an attempt needs of the command's deadline (config/time-limits.ts CommandDeadline): begin() marks it busy until the function returned is called. */
export interface CommandClock {
  remainingMs(): number;
  begin(): () => void;
  error(what: string, why?: string): Error;
}

/**
 * One GET on its way down the layers: `what` is the request in words for messages (`GET
 * /exercise/Push_Up`); any of `signals` cancels it (Ctrl-C's, the caller's own); with `progress`
 * (a media stream) a download's whole life applies, else a request's (config/time-limits.ts); `command`: the command's
 * deadline it counts in, none outside it.
 */
export interface Outgoing {
  url: URL;
  headers: Record<string, string>;
  what: string;
  signals: readonly AbortSignal[];
  progress?: Progress;
  command?: CommandClock;
}

/** An answer's head and its body (a DispatchedBody chunk by chunk, or read whole). */
export interface Incoming<B = DispatchedBody> {
  status: number;
  headers: ResponseHeaders;
  body: B;
}

export type Exchange<B = DispatchedBody> = (request: Outgoing) => Promise<Incoming<B>>;

/** A media answer; the caller must read its body to the end (pumpBody) or discard() it. */
export interface DispatchResponse extends Incoming {
  /** The URL it was asked of, resolved. */
  url: URL;
}

/** What a body source drives: onData returns false to pause the source until resume(); onEnd means the framing was complete. */
export interface BodyConsumer {
  onData(chunk: Buffer): boolean;
  onEnd(): void;
  onError(err: unknown): void;
}

/** What the consumer may ask of a started source. */
export interface BodyControl {
  resume(): void;
  /** Stops the body (a refused or failed download); no callback follows. */
  destroy(): void;
}

export interface BodySource {
  start(consumer: BodyConsumer): BodyControl;
}

/** A response body as a BodySource; discard() lets go of it unread (no callback follows). */
export interface DispatchedBody extends BodySource {
  discard(): void;
  /** Runs `callback` once the body is over: read to its end, failed, discarded. At once if it already is. */
  onClose(callback: () => void): void;
}
