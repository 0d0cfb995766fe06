/**
 * The request ledger at work in the transport: every attempt to the configured origin, retries included,
 * is counted before it goes out and given back only when it provably never reached the service. With a
 * budget each attempt is reserved under the ledger's lock, so processes never pass it together, and an
 * unusable ledger stops the command (exit 5). Without one, counts are batched in memory (COUNT_BATCH and
 * at exit), and a ledger that cannot be written is told once (--verbose), never failing the command.
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
  /** Called with each response's head as it arrives; throwing fails the request. */
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
  path: string;
  /** The configured base URL's origin: requests to it are counted. */
  origin: string;
  /** The origin they are counted under, when not `origin` (the --sandbox server's changing port). */
  countAs?: string;
  keyHash: string;
  budget: number | null;
  /** Applied to rate-limit header values before the ledger keeps them. */
  redact?: (text: string) => string;
  /** Problems that matter: the ledger recovered or set aside, a count not given back. */
  warn?: (message: string) => void;
  /** --verbose: problems that change nothing the user asked for. */
  log?: (line: string) => void;
}

export interface RequestCount extends Required<RequestHooks> {
  /** Adds the counts still in memory and writes the rate-limit headers noted (at exit). */
  flush(): Promise<void>;
}

/** Requests counted in memory before they are added to the ledger, without a budget. */
export const COUNT_BATCH = 100;

export function requestCount(options: RequestCountOptions): RequestCount {
  const { keyHash, budget, warn } = options;
  const origin = new URL(options.origin).origin;
  const counted = options.countAs ?? origin;
  const ledger = new Ledger(options.path, { ...(warn ? { warn } : {}), ...(options.redact ? { redact: options.redact } : {}) });
  let broken = false;
  /** Requests sent and not yet added, less those given back (no budget only). */
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
        // The budget spent is the ledger's own CliError; anything else is a ledger we cannot use.
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
