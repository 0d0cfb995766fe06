/**
 * The transport's hooks for the request ledger: every attempt sent to the configured origin
 * (JSON and media, retries included) is reserved in the ledger before it goes out — refused
 * when it would pass the budget — and the rate-limit headers of each answer are noted.
 * Requests to other origins (media on another host) are not the service's and are not
 * counted. The ledger is opened with the first request only.
 * Without a budget, a ledger that cannot be written (a read-only cache directory) is told once
 * (--verbose) and the requests go out uncounted: the count is then a help, never the reason a
 * command fails.
 *
 * With a budget, each request is reserved under the ledger's lock, durably, before it is sent,
 * so that processes sharing a budget never pass it together; a ledger that cannot be locked,
 * read or written stops the command (BudgetUncheckedError, exit 5): nothing is sent past a
 * budget, nor when the budget cannot be checked. Without one nothing must be refused, and
 * a lock and a file rewrite per request made `ids --all` five times slower (bench/paging.mjs):
 * requests are counted in memory and added to the ledger every COUNT_BATCH requests and at
 * exit. A process killed outright (SIGKILL) loses at most that batch from the count.
 */
import { BudgetUncheckedError, CliError } from '../errors.js';
import type { HeaderBag } from './headers.js';
import { Ledger } from './ledger.js';

export interface RequestCountOptions {
  /** The ledger file (paths.ts ledgerPath). */
  path: string;
  /** The configured base URL's origin: requests to it are counted. */
  origin: string;
  /** The origin they are counted under, when not `origin` itself (the --sandbox server's changing port). */
  countAs?: string;
  /** keys.ts keyHash() of the key in use. */
  keyHash: string;
  /** Requests allowed this month; null: none. */
  budget: number | null;
  /** Applied to rate-limit header values before the ledger keeps them (util/text.ts redactorFor of the key). */
  redact?: (text: string) => string;
  /** Problems that matter: the ledger file recovered or set aside. */
  warn?: (message: string) => void;
  /** --verbose: problems that change nothing the user asked for (requests left uncounted without a budget). */
  log?: (line: string) => void;
}

export interface RequestCount {
  beforeRequest(url: URL): Promise<void>;
  afterResponse(url: URL, status: number, headers: HeaderBag): void;
  /** Writes the rate-limit headers noted (at exit); nothing when no request was sent. */
  flush(): Promise<void>;
}

/** Requests counted in memory before they are added to the ledger, when no budget is set. */
export const COUNT_BATCH = 100;

export function requestCount(options: RequestCountOptions): RequestCount {
  const origin = new URL(options.origin).origin;
  const counted = options.countAs ?? origin;
  let ledger: Promise<Ledger> | undefined;
  let broken = false;
  const open = (): Promise<Ledger> =>
    (ledger ??= Promise.resolve().then(
      () => new Ledger(options.path, { ...(options.warn ? { warn: options.warn } : {}), ...(options.redact ? { redact: options.redact } : {}) }),
    ));
  /** Requests sent and not yet added to the ledger (no budget only). */
  let unadded = 0;
  const failed = (err: unknown): void => {
    broken = true;
    options.log?.(`cannot count requests in ${options.path} (${(err as Error).message}); this run's requests are not counted.`);
  };
  const addUnadded = async (): Promise<void> => {
    const n = unadded;
    unadded = 0;
    try {
      await (await open()).add(counted, options.keyHash, n);
    } catch (err) {
      failed(err);
    }
  };
  return {
    async beforeRequest(url) {
      if (url.origin !== origin || broken) return;
      if (options.budget === null) {
        open().catch(failed); // loaded now, so afterResponse can note rate-limit headers
        unadded += 1;
        if (unadded >= COUNT_BATCH) await addUnadded();
        return;
      }
      try {
        await (await open()).reserve(counted, options.keyHash, { budget: options.budget });
      } catch (err) {
        if (err instanceof CliError) throw err; // the budget spent, or not checkable
        throw new BudgetUncheckedError(options.path, `the ledger cannot be used (${(err as Error).message})`);
      }
    },
    afterResponse(url, _status, headers) {
      if (url.origin !== origin || !ledger || broken) return;
      // Reserved before it was sent, so the ledger is open (or opening) by now.
      void ledger.then((l) => l.noteRateLimit(counted, options.keyHash, headers));
    },
    async flush() {
      if (unadded > 0 && !broken) await addUnadded();
      if (ledger && !broken) await (await ledger).flush().catch(() => {});
    },
  };
}
