/**
 * The transport layer (exchange.ts) that lets the request ledger count: every attempt, JSON and
 * media, retries included, first passes `beforeRequest`, awaited (the ledger reserves it there,
 * src/cache/request-count.ts), which may refuse it before anything is sent and may hand back how
 * to undo its count; an attempt that failed before it was written (network-errors.ts
 * wasNeverWritten: it never reached the service) is given back so, awaited, before its error goes
 * up. Each answer's head is then shown to `afterResponse` (the rate-limit headers it notes). An
 * afterResponse that throws fails the request, and its body is let go.
 */
import type { Exchange } from './exchange.js';
import type { ResponseHeaders } from './exchange.js';
import { wasNeverWritten } from './network-errors.js';

/** Undoes the count of one attempt that never reached the service; never throws. */
export type GiveBack = () => void | Promise<void>;

export interface RequestHooks {
  /** Awaited before EVERY attempt is sent. Throwing (a CliError) stops the request: nothing is sent. */
  beforeRequest?: ((url: URL) => void | GiveBack | Promise<void | GiveBack>) | undefined;
  /** Called with each response's status and headers, as soon as they arrive. */
  afterResponse?: ((url: URL, status: number, headers: ResponseHeaders) => void) | undefined;
}

export function counting(next: Exchange, hooks: RequestHooks): Exchange {
  const { beforeRequest, afterResponse } = hooks;
  if (!beforeRequest && !afterResponse) return next;
  return async (request) => {
    const giveBack = beforeRequest ? await beforeRequest(request.url) : undefined;
    let res;
    try {
      res = await next(request);
    } catch (err) {
      if (giveBack && wasNeverWritten(err)) await giveBack();
      throw err;
    }
    try {
      afterResponse?.(request.url, res.status, res.headers);
    } catch (err) {
      res.body.discard();
      throw err;
    }
    return res;
  };
}
