/**
 * The one small interface the transport is composed of. An Exchange sends one GET and resolves
 * with the answer's head and body; each layer takes the Exchange below it and returns one that
 * does its own job around it:
 *
 *   retry.ts            the one retry policy, --verbose line per attempt (JSON)
 *   json-body.ts        the body read whole within its cap (JSON)
 *   command-deadline.ts the whole command's deadline (JSON)
 *   counting.ts         the request ledger's hooks, before and after each attempt
 *   attempt.ts          one attempt over the one undici dispatcher: signals, whole-life
 *                       deadline, error mapping (the bottom)
 *
 * transport.ts stacks them (media streams go through counting.ts and attempt.ts only). A
 * request carries what the layers below need as data (its progress, the command's deadline),
 * never callbacks into the layer above.
 */
import type { DispatchedBody } from './dispatch-body.js';
import { safeHeaderValue } from '../cache/headers.js';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** Body bytes received so far by a media stream, whose deadline grows with them (deadline.ts). */
export interface Progress {
  bytes: number;
  /** The least average rate the media deadline asks (deadline.ts); MEDIA_MIN_BYTES_PER_SECOND when absent (--limit-rate lowers it). */
  minBytesPerSecond?: number;
}

/** What an attempt needs of the command's deadline (command-deadline.ts CommandDeadline). */
export interface CommandClock {
  remainingMs(): number;
  /** Marks the attempt busy; the function returned ends it. */
  begin(): () => void;
  /** The error that ends the command. */
  error(what: string, why?: string): Error;
}

/** One GET on its way down the layers. */
export interface Outgoing {
  url: URL;
  headers: Record<string, string>;
  /** The request in words, for messages: `GET /exercise/Push_Up`. */
  what: string;
  /** Any of them cancels the request: Ctrl-C's and the caller's own. */
  signals: readonly AbortSignal[];
  /** A media stream's bytes so far: present, the media deadline applies; absent, the JSON one. */
  progress?: Progress;
  /** The command's deadline this attempt counts in (command-deadline.ts); none outside it. */
  command?: CommandClock;
}

/** An answer's head and its body (a DispatchedBody chunk by chunk, or read whole). */
export interface Incoming<B = DispatchedBody> {
  status: number;
  headers: ResponseHeaders;
  body: B;
}

export type Exchange<B = DispatchedBody> = (request: Outgoing) => Promise<Incoming<B>>;

/** The first value of a response header (`name` in lower case), for any client-side reader of headers. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * RateLimit-* / X-RateLimit-* headers, for --verbose: controls stripped (cache/headers.ts) before
 * the line is redacted, so a key split by control bytes is found whole.
 */
export function quotaHeaders(headers: ResponseHeaders): string {
  return Object.entries(headers)
    .filter(([name]) => /^(x-)?ratelimit(-|$)/.test(name) || name === 'retry-after')
    .map(([name, v]) => `${name}=${safeHeaderValue(Array.isArray(v) ? v.join(',') : String(v))}`)
    .join(' ');
}

/**
 * A media answer whose body comes chunk by chunk from undici's dispatch (dispatch-body.ts), no
 * Readable; the caller must read it to its end (pumpBody) or discard() it.
 */
export interface DispatchResponse extends Incoming {
  /** The URL it was asked of, resolved. */
  url: URL;
}
