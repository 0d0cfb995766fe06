/**
 * The transport layer (exchange.ts) that lets the request ledger count: every attempt, JSON and
 * media, retries included, first passes `beforeRequest`, awaited (the ledger reserves it there,
 * src/cache/request-count.ts), which may refuse it before anything is sent; each answer's head
 * is then shown to `afterResponse` (the rate-limit headers it notes). An afterResponse that
 * throws fails the request, and its body is let go.
 */
import type { Exchange } from './exchange.js';
import type { ResponseHeaders } from './exchange.js';

export interface RequestHooks {
  /** Awaited before EVERY attempt is sent. Throwing (a CliError) stops the request: nothing is sent. */
  beforeRequest?: ((url: URL) => void | Promise<void>) | undefined;
  /** Called with each response's status and headers, as soon as they arrive. */
  afterResponse?: ((url: URL, status: number, headers: ResponseHeaders) => void) | undefined;
}

export function counting(next: Exchange, hooks: RequestHooks): Exchange {
  const { beforeRequest, afterResponse } = hooks;
  if (!beforeRequest && !afterResponse) return next;
  return async (request) => {
    if (beforeRequest) await beforeRequest(request.url);
    const res = await next(request);
    try {
      afterResponse?.(request.url, res.status, res.headers);
    } catch (err) {
      res.body.discard();
      throw err;
    }
    return res;
  };
}
