/**
 * The request ledger (src/cache/ledger.ts) at work in the transport: the layer that runs the
 * hooks around every attempt, and requestCount(), the hooks that count. Every attempt to the
 * configured origin, retries included, is counted before it goes out and given back only when it
 * provably never reached the service (failures.ts wasNeverWritten); other origins are not counted.
 *
 * With a budget each attempt is reserved durably under the ledger's lock, so processes sharing a
 * budget never pass it together, and a ledger that cannot be used stops the command (exit 5).
 * Without one nothing may be refused, and a lock and a rewrite per request would cost a long
 * listing more than its requests: requests are counted in memory and added every COUNT_BATCH and at exit, and a
 * ledger that cannot be written is told once (--verbose): the count is then a help, never the
 * reason a command fails.
 */
import type { Exchange, ResponseHeaders } from './exchange.js';
import { wasNeverWritten } from './failures.js';
import { BudgetUncheckedError, CliError } from '../errors.js';
import { Ledger } from '../cache/ledger.js';

/** Undoes the count of one attempt that never reached the service; never throws. */
export type GiveBack = () => void | Promise<void>;

export interface RequestHooks {
  /** Awaited before EVERY attempt is sent. Throwing (a CliError) stops the request: nothing is sent. */
  beforeRequest?: ((url: URL) => void | GiveBack | Promise<void | GiveBack>) | undefined;
  /** Called with each response's status and headers, as soon as they arrive. Throwing fails the request (its body let go). */
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

export interface RequestCountOptions {
  /** The ledger file (cache/store-files.ts ledgerPath). */
  path: string;
  /** The configured base URL's origin: requests to it are counted. */
  origin: string;
  /** The origin they are counted under, when not `origin` itself (the --sandbox server's changing port). */
  countAs?: string;
  /** cache/cached-get.ts keyHash() of the key in use. */
  keyHash: string;
  /** Requests allowed this month; null: none. */
  budget: number | null;
  /** Applied to rate-limit header values before the ledger keeps them (util/text.ts redactorFor of the key). */
  redact?: (text: string) => string;
  /** Problems that matter: the ledger file recovered or set aside, a count that could not be given back. */
  warn?: (message: string) => void;
  /** --verbose: problems that change nothing the user asked for (requests left uncounted without a budget). */
  log?: (line: string) => void;
}

export interface RequestCount extends Required<RequestHooks> {
  /** Adds the requests still counted in memory and writes the rate-limit headers noted (at exit). */
  flush(): Promise<void>;
}

/** Requests counted in memory before they are added to the ledger, when no budget is set. */
export const COUNT_BATCH = 100;

export function requestCount(options: RequestCountOptions): RequestCount {
  const { keyHash, budget, warn } = options;
  const origin = new URL(options.origin).origin;
  const counted = options.countAs ?? origin;
  const ledger = new Ledger(options.path, { ...(warn ? { warn } : {}), ...(options.redact ? { redact: options.redact } : {}) });
  let broken = false;
  /** Requests sent and not yet added to the ledger, less those given back (no budget only; below 0 when a batch went first). */
  let unadded = 0;
  const addUnadded = async (): Promise<void> => {
    const n = unadded;
    unadded = 0;
    await ledger.add(counted, keyHash, n).catch((err: Error) => {
      broken = true;
      options.log?.(`cannot count requests in ${options.path} (${err.message}); this run's requests are not counted.`);
    });
  };
  return {
    async beforeRequest(url) {
      if (url.origin !== origin || broken) return undefined;
      if (budget === null) {
        if (++unadded >= COUNT_BATCH) await addUnadded();
        return () => void (unadded -= 1);
      }
      const { month } = await ledger.reserve(counted, keyHash, { budget }).catch((err: Error) => {
        // The budget spent, or not checkable, is the ledger's own CliError; anything else is a ledger we cannot use.
        throw err instanceof CliError ? err : new BudgetUncheckedError(options.path, `the ledger cannot be used (${err.message})`);
      });
      return async () => {
        await ledger.giveBack(counted, keyHash, month).catch((err: Error) => {
          warn?.(`a request to ${origin} never left, but its count could not be given back (${err.message}); the month's count is one too high.`);
        });
      };
    },
    afterResponse(url, _status, headers) {
      if (url.origin === origin && !broken) ledger.noteRateLimit(counted, keyHash, headers);
    },
    async flush() {
      if (unadded !== 0 && !broken) await addUnadded();
      if (!broken) await ledger.flush().catch(() => {});
    },
  };
}
