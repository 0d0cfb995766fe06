/**
 * The contract between a transport that hands over a response body chunk by chunk and what
 * consumes it: the source calls onData/onEnd/onError, the consumer may pause it (onData
 * returning false) and later resume() it, or destroy() it. It lives here, below media/, because
 * the transport's dispatch path (dispatch-body.ts) produces bodies in this shape and the media
 * layer's body pump (media/download/body-pump.ts) consumes them.
 */

/** What a body source drives. */
export interface BodyConsumer {
  /** A chunk arrived; false asks the source to pause until resume(). */
  onData(chunk: Buffer): boolean;
  /** The body ended and the transport found its framing complete. */
  onEnd(): void;
  /** The body failed: dropped connection, timeout, abort. */
  onError(err: unknown): void;
}

/** What the pump may ask of a started source. */
export interface BodyControl {
  resume(): void;
  /** Stops the body (a refused or failed download); no callback follows. */
  destroy(): void;
}

export interface BodySource {
  start(consumer: BodyConsumer): BodyControl;
}
