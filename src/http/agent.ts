/**
 * The undici Agent behind a Transport: one per Transport, keep-alive, created on its first
 * request. undici itself is imported only then (createAgent imports it lazily), so `--help`,
 * `--version` and answers from the cache never load it. In the
 * bundle, undici is a vendor file required at that moment (scripts/bundle.mjs).
 *
 * undici's own timeouts do the idle bounds: connect, headers and body each `timeoutMs` (the
 * headers and body ones run on undici's coarse timers, which tick every half second: a bound
 * of t fires between t and t + ~1 s). The whole-life bound is deadline.ts's.
 * Sockets look names up through loopbackLookup, so `localhost` never reaches DNS.
 */
import type { Dispatcher } from 'undici';
import { loopbackLookup } from './loopback-lookup.js';

/** Body bytes received so far by one request; carried in its dispatch options as `progress`. */
export interface Progress {
  bytes: number;
}

/** Dispatch options of ours that undici passes through untouched to the interceptors. */
interface WithProgress {
  progress?: Progress;
}

/**
 * An undici interceptor that counts the body bytes of requests that carry a `progress`
 * object (media streams, whose deadline grows with what arrived), and leaves every other
 * request to undici untouched.
 */
function countBodyBytes(dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch {
  return (opts, handler) => {
    const progress = (opts as WithProgress).progress;
    if (!progress) return dispatch(opts, handler);
    const counting: Dispatcher.DispatchHandler = {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, status, headers, socket) => handler.onRequestUpgrade?.(controller, status, headers, socket),
      onResponseStart: (controller, status, headers, message) => handler.onResponseStart?.(controller, status, headers, message),
      onResponseData: (controller, chunk) => {
        progress.bytes += chunk.length;
        handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, err) => handler.onResponseError?.(controller, err),
    };
    return dispatch(opts, counting);
  };
}

export async function createAgent(timeoutMs: number): Promise<Dispatcher> {
  const { Agent } = await import('undici');
  // No cap on sockets per origin: callers bound their own concurrency (show's window, --concurrency).
  return new Agent({
    connect: { timeout: timeoutMs, lookup: loopbackLookup },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  }).compose(countBodyBytes);
}
