/**
 * The transport's contracts, types only. An Exchange sends one GET and resolves with its head and body;
 * each layer wraps the one below, from the top: retrying (transport.ts, JSON), wholeBodies (body.ts,
 * JSON), counting (counting.ts), Attempts.send (attempt.ts). A body goes chunk by chunk; its consumer may
 * pause it (onData returning false), resume() or destroy() it.
 */

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** Body bytes a media stream received so far: its whole life grows with them. */
export interface Progress {
  bytes: number;
  /** The least average rate asked; MEDIA_MIN_BYTES_PER_SECOND when absent. */
  minBytesPerSecond?: number;
}

/** What an attempt needs of the command's deadline: begin() marks it busy until the function returned is called. */
export interface CommandClock {
  remainingMs(): number;
  begin(): () => void;
  error(what: string, why?: string): Error;
}

/**
 * One GET on its way down the layers: `what` in words for messages; any of `signals` cancels it; with
 * `progress` a download's whole life applies, else a request's; `command`: the deadline it counts in.
 */
export interface Outgoing {
  url: URL;
  headers: Record<string, string>;
  what: string;
  signals: readonly AbortSignal[];
  progress?: Progress;
  command?: CommandClock;
}

export interface Incoming<B = DispatchedBody> {
  status: number;
  headers: ResponseHeaders;
  body: B;
}

export type Exchange<B = DispatchedBody> = (request: Outgoing) => Promise<Incoming<B>>;

/** A media answer; the caller must read its body to the end (pumpBody) or discard() it. */
export interface DispatchResponse extends Incoming {
  url: URL;
}

/** What a body source drives: onData returns false to pause until resume(); onEnd means the framing was complete. */
export interface BodyConsumer {
  onData(chunk: Buffer): boolean;
  onEnd(): void;
  onError(err: unknown): void;
}

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
  /** Runs `callback` once the body is over (at once if it is). */
  onClose(callback: () => void): void;
}
