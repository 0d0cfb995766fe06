/**
 * The transport's hooks for the request ledger: every attempt sent to the configured origin
 * (JSON and media, retries included) is reserved in the ledger before it goes out — refused
 * when it would pass the budget — and the rate-limit headers of each answer are noted.
 * Requests to other origins (media on another host) are not the service's and are not
 * counted. The ledger module (and its lock library) loads with the first request only.
 */
import type { HeaderBag } from './headers.js';
import type { Ledger } from './ledger.js';

export interface RequestCountOptions {
  /** The ledger file (paths.ts ledgerPath). */
  path: string;
  /** The configured base URL's origin: the connection counted. */
  origin: string;
  /** keys.ts keyHash() of the key in use. */
  keyHash: string;
  /** Requests allowed this month; null: none. */
  budget: number | null;
  warn?: (message: string) => void;
}

export interface RequestCount {
  beforeRequest(url: URL): Promise<void>;
  afterResponse(url: URL, status: number, headers: HeaderBag): void;
  /** Writes the rate-limit headers noted (at exit); nothing when no request was sent. */
  flush(): Promise<void>;
}

export function requestCount(options: RequestCountOptions): RequestCount {
  const origin = new URL(options.origin).origin;
  let ledger: Promise<Ledger> | undefined;
  const open = (): Promise<Ledger> =>
    (ledger ??= import('./ledger.js').then(({ Ledger }) => new Ledger(options.path, options.warn ? { warn: options.warn } : {})));
  return {
    async beforeRequest(url) {
      if (url.origin !== origin) return;
      await (await open()).reserve(origin, options.keyHash, { budget: options.budget });
    },
    afterResponse(url, _status, headers) {
      if (url.origin !== origin || !ledger) return;
      // Reserved before it was sent, so the ledger is open (or opening) by now.
      void ledger.then((l) => l.noteRateLimit(origin, options.keyHash, headers));
    },
    async flush() {
      if (ledger) await (await ledger).flush();
    },
  };
}
