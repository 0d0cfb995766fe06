/**
 * The proxy's one way to the upstream service: the CLI's transport (src/http: URL policy,
 * the key sent to the upstream origin only, timeouts, the key redacted from every message),
 * one attempt per call — the proxy's clients retry, each through their own policy — and the
 * request ledger: every upstream request is reserved in it before it is sent, refused with
 * BudgetExceededError when it would pass the budget, given back when it never reached upstream.
 *
 * Reservations are chained in this process (one ledger lock at a time): a burst of distinct
 * misses would otherwise contend for the same lock file and back off against each other.
 */
import { keyHash } from '../cache/cached-get.js';
import type { Settings } from '../config/settings.js';
import { Ledger, type LedgerUsage } from '../cache/ledger.js';
import type { Readable } from 'node:stream';
import { Transport, type ResponseHeaders } from '../http/transport.js';
import type { GiveBack } from '../http/counting.js';
import { bodyReadable, readWhole } from '../http/body.js';
import { JSON_SIZE_CAP } from '../defaults.js';
import { firstValue } from '../server/http-error.js';
import { NetworkError } from '../errors.js';
import { PROXY_NOTICE_MS } from '../config/time-limits.js';

/** The settings the proxy's way upstream follows (config/settings-table.ts); no budget when it is absent. */
export type UpstreamSettings = Pick<Settings, 'timeout'> & Partial<Pick<Settings, 'budget' | 'allowInsecure'>>;

export interface UpstreamOptions {
  baseUrl: string;
  /** Sent as X-API-Key to the upstream origin only; never logged, never in an answer. */
  apiKey: string;
  /** Where the key came from (`EXERCISES_UPSTREAM_KEY`, `--upstream-key-file <path>`…), for the line saying the upstream refused it. */
  keySource?: string;
  /** The run's settings it follows: --timeout, the budget (upstream requests per calendar month, UTC), allow-insecure. */
  settings: UpstreamSettings;
  /** The ledger file shared with the CLI (cache/store-files.ts ledgerPath). */
  ledgerPath: string;
  /** The ledger kept elsewhere (shared-ledger.ts, replicas sharing a Redis) instead of the file. */
  ledger?: UpstreamLedger;
  /** Problems with the ledger (set aside, lock lost), and the upstream refusing the key. */
  warn?: (message: string) => void;
  /** Aborted when the proxy stops for good: requests still running end at once. */
  signal?: AbortSignal;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the CLI's environment); none: direct. */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
  /** --verbose lines of the transport (the proxy in use). */
  log?: (line: string) => void;
}

/** What the proxy needs of a ledger: the file one (cache/ledger.ts) or the one in Redis (shared-ledger.ts), chosen once. */
export type UpstreamLedger = Pick<Ledger, 'reserve' | 'giveBack' | 'usage'>;

/** An upstream answer with its body as a stream; the caller consumes or destroys it. */
export interface StreamResponse {
  status: number;
  /** Lower-case names. */
  headers: ResponseHeaders;
  body: Readable;
}

/** An upstream answer read whole: every byte of its body. */
export type UpstreamBody = Omit<StreamResponse, 'body'> & { body: Buffer };

/** A body that ended before its Content-Length, or past the cap: never cached, never served. */
export class IncompleteBodyError extends Error {
  readonly code = 'incomplete_body';
}

export class Upstream {
  readonly origin: string;
  readonly budget: number | null;
  /** The hash of the upstream key (cached-get.ts keyHash), for the ledger and the store's keys: never the key. */
  readonly keyHash: string;
  private readonly transport: Transport;
  private readonly ledger: UpstreamLedger;
  /** When the key refusal was last said (keyRefused). */
  private keyRefusedSaidAt = -Infinity;
  private reserving: Promise<unknown> = Promise.resolve();
  /** This month's usage as the last reservation (or read) left it, without I/O (undefined before the first read): for headers and /-/status. */
  knownUsage: LedgerUsage | undefined;

  constructor(private readonly options: UpstreamOptions) {
    this.budget = options.settings.budget ?? null;
    this.keyHash = keyHash(options.apiKey);
    this.ledger = options.ledger ?? new Ledger(options.ledgerPath, { warn: options.warn });
    // Not the shutdown signal: fetchWhole and stream take it per request, beside their own limits.
    const { baseUrl, apiKey, settings, proxyEnv, log } = options;
    this.transport = new Transport({ baseUrl, apiKey, settings: { ...settings, retries: 0 }, proxyEnv, log, beforeRequest: (url) => this.reserve(url) });
    this.origin = this.transport.baseUrl.origin;
  }

  /** The upstream base URL (with any path prefix), for cache keys. */
  get baseUrl(): string {
    return this.transport.baseUrl.href;
  }

  private reserve(url: URL): Promise<GiveBack | undefined> {
    if (url.origin !== this.origin) return Promise.resolve(undefined);
    const next = this.reserving.then(() => this.ledger.reserve(this.origin, this.keyHash, { budget: this.budget }));
    this.reserving = next.catch(() => {});
    return next.then((usage) => {
      this.knownUsage = usage;
      // A request that never reached upstream (refused, not resolved…) spent nothing: given back (http/counting.ts).
      return async () => {
        await this.ledger.giveBack(this.origin, this.keyHash, usage.month).catch(() => {});
        await this.usage().catch(() => {});
      };
    });
  }

  /** This month's usage from the ledger (other processes sharing it included). */
  async usage(): Promise<LedgerUsage> {
    const usage = await this.ledger.usage(this.origin, this.keyHash, { budget: this.budget });
    this.knownUsage = usage;
    return usage;
  }

  /**
   * The upstream answered 401/403 to the proxy's own key: said on the proxy's log at most once a
   * minute, naming where the key came from (never the key), so the operator learns it before the clients do.
   */
  keyRefused(status: number): void {
    const now = Date.now();
    if (now - this.keyRefusedSaidAt < PROXY_NOTICE_MS) return;
    this.keyRefusedSaidAt = now;
    this.options.warn?.(
      `proxy: the upstream service refused the proxy's upstream key (${status}), taken from ${this.options.keySource ?? 'the options'}; clients get 502 until it is replaced (said at most once a minute).`,
    );
  }

  /** Replaces the upstream key wherever it might appear in a text about to leave the proxy. */
  redact(text: string): string {
    return this.transport.redact(text);
  }

  /**
   * One GET of `target` (path and query under the base URL), read whole, within a request's whole
   * life (config/time-limits.ts requestMs: an upstream dripping a byte inside each idle timeout
   * would otherwise hold the proxy's clients, coalesced ones too, as long as it likes). A body that
   * is cut short or larger than the cap rejects with IncompleteBodyError; connection failures and
   * timeouts with the transport's NetworkError; a budget refusal with BudgetExceededError.
   */
  async fetchWhole(target: string, headers: Record<string, string>, cap = JSON_SIZE_CAP): Promise<UpstreamBody> {
    const res = await this.transport.dispatchStream(target, { headers, signal: this.options.signal, wholeAnswer: true });
    let read: { bytes: Buffer; truncated: boolean };
    try {
      read = await readWhole(res.body, cap);
    } catch (err) {
      // Too slow (an idle or whole-life limit) is a timeout; anything else cut the answer short.
      if (err instanceof NetworkError && err.code === 'timeout') throw err;
      throw new IncompleteBodyError(`The upstream answer to ${target} ended early (${this.redact((err as Error).message)}).`);
    }
    if (read.truncated) throw new IncompleteBodyError(`The upstream answer to ${target} is larger than ${cap} bytes.`);
    const length = firstValue(res.headers['content-length']);
    if (length !== undefined && Number(length) !== read.bytes.length) {
      throw new IncompleteBodyError(`The upstream answer to ${target} has ${read.bytes.length} of its ${length} bytes.`);
    }
    return { status: res.status, headers: res.headers, body: read.bytes };
  }

  /** One GET of `target` with the body left as a stream (media). The caller consumes or destroys it. */
  async stream(target: string, options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<StreamResponse> {
    const res = await this.transport.dispatchStream(target, options);
    const body = bodyReadable(res.body, (err) => this.transport.streamError(err, res.url, options.signal));
    return { status: res.status, headers: res.headers, body };
  }

  async close(): Promise<void> {
    await this.reserving.catch(() => {});
    await this.transport.close();
  }
}
