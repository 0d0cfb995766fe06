/**
 * The HTTP transport: Node's own keep-alive client (node-get.ts; README "Where this departs
 * from DESIGN.md" says why not undici), the API key header for the configured origin only,
 * timeouts, retries, a response size cap, error mapping and --verbose request lines with
 * the key redacted. JSON requests and media streams share the same agents and rules.
 */
import type { Readable } from 'node:stream';
import {
  type CliError,
  InterruptedError,
  MalformedResponseError,
  NetworkError,
  RateLimitError,
  UsageError,
} from '../errors.js';
import {
  RETRY_AFTER_CAP_MS,
  RETRYABLE_STATUSES,
  errorForStatus,
  isRetryableError,
  parseRetryAfter,
  retryDelayMs,
  sleep,
} from './retry.js';
import { readCapped } from './read-capped.js';
import { NodeAgents, type NodeResponse } from './node-get.js';
import { plural } from '../util/text.js';
import { isAbsoluteUrl } from '../catalogue/media.js';

/** Milliseconds from a monotonic clock (process.hrtime: the `performance` global would load perf_hooks). */
function nowMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/** Largest JSON answer accepted; a list page of 25 summaries is a few KiB, a record less. */
export const JSON_SIZE_CAP = 8 * 1024 * 1024;
/** How much of an error body is read to quote the server's message. */
const ERROR_BODY_CAP = 64 * 1024;
const USER_AGENT = 'exercises-cli';

export interface TransportOptions {
  /** e.g. 'https://api.wrkout.xyz' or 'http://127.0.0.1:8787' (a path prefix is kept). */
  baseUrl: string;
  /** Sent as X-API-Key only to requests whose origin equals baseUrl's origin. */
  apiKey?: string;
  /** Connect, headers and body-idle timeout, each. */
  timeoutMs: number;
  /** Extra attempts for retryable failures (see retry.ts). */
  retries: number;
  /** Plain http:// to a non-loopback host is refused unless true. */
  allowInsecure?: boolean;
  /** --verbose lines (method, URL, status, ms, retries, quota headers; key as ***). */
  log?: (line: string) => void;
  /** Ctrl-C. */
  signal?: AbortSignal;
}

export interface StreamResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | undefined>;
  /** The caller must consume or destroy it. */
  body: Readable;
  url: URL;
}

export type QueryValues = Record<string, string | string[] | undefined>;

/** 127.0.0.0/8, ::1 and localhost: the only hosts plain http is allowed to by default. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Refuses anything but https, or http to loopback (unless allowInsecure), before any request. */
export function assertAllowedUrl(url: URL, allowInsecure = false): void {
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') {
    throw new UsageError(`Refusing to fetch ${url.protocol}// URLs: only http and https are supported.`);
  }
  if (!allowInsecure && !isLoopbackHost(url.hostname)) {
    throw new UsageError(`Refusing plain http:// to ${url.host}: the API key and data would travel unencrypted.`, {
      hint: 'Use an https:// base URL, or pass --allow-insecure if you really mean it.',
    });
  }
}

/**
 * A base URL as given by --base-url, EXERCISES_BASE_URL or `config set base-url`: a full
 * http(s) URL without credentials; a query or fragment is dropped (a path prefix is kept).
 */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  const hint = 'Give a full URL such as https://api.wrkout.xyz (flag --base-url, env EXERCISES_BASE_URL or `exercises config set base-url`).';
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(`The base URL "${text}" is not a valid URL.`, { hint });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`The base URL "${text}" is not an http(s) URL.`, { hint });
  if (url.username || url.password) throw new UsageError('The base URL must not contain a user name or password.');
  url.search = '';
  url.hash = '';
  return url;
}

/** The first value of a response header (`name` in lower case), for any client-side reader of headers. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** RateLimit-* / X-RateLimit-* headers, for --verbose. */
function quotaHeaders(headers: Record<string, string | string[] | undefined>): string {
  return Object.entries(headers)
    .filter(([name]) => /^(x-)?ratelimit(-|$)/.test(name) || name === 'retry-after')
    .map(([name, v]) => `${name}=${Array.isArray(v) ? v.join(',') : v}`)
    .join(' ');
}

export class Transport {
  readonly baseUrl: URL;
  private readonly options: TransportOptions;
  /** Keep-alive agents for every request, JSON and media alike. */
  private readonly agents = new NodeAgents();

  constructor(options: TransportOptions) {
    this.options = options;
    this.baseUrl = parseBaseUrl(options.baseUrl);
    assertAllowedUrl(this.baseUrl, options.allowInsecure);
  }

  /** A URL under the base URL (keeping its path prefix), or an absolute URL as given. */
  resolve(pathOrUrl: string | URL, query?: QueryValues): URL {
    let url: URL;
    if (pathOrUrl instanceof URL) url = new URL(pathOrUrl.href);
    else if (isAbsoluteUrl(pathOrUrl)) url = new URL(pathOrUrl);
    else {
      const prefix = this.baseUrl.pathname.replace(/\/+$/, '');
      const path = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
      url = new URL(`${prefix}${path}`, this.baseUrl.origin);
    }
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, v);
    }
    return url;
  }

  /** Replaces the key wherever it might appear. */
  redact(text: string): string {
    const key = this.options.apiKey;
    return key ? text.split(key).join('***') : text;
  }

  private log(line: string): void {
    this.options.log?.(this.redact(line));
  }

  private headersFor(url: URL, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...extra };
    // The key goes to the configured origin and nowhere else (a media URL may point elsewhere).
    if (this.options.apiKey && url.origin === this.baseUrl.origin) headers['x-api-key'] = this.options.apiKey;
    return headers;
  }

  /**
   * The signals that cancel a request: Ctrl-C's and the caller's own, each given to the
   * agents as is. No AbortSignal.any per request: a bulk run would make one per attempt.
   */
  private signalsWith(extra?: AbortSignal): readonly AbortSignal[] {
    const own = this.options.signal;
    if (!extra || extra === own) return own ? [own] : [];
    return own ? [own, extra] : [extra];
  }

  /** One GET, up to the response headers; failures become project errors. */
  private async send(url: URL, headers: Record<string, string>, signals: readonly AbortSignal[]): Promise<NodeResponse> {
    assertAllowedUrl(url, this.options.allowInsecure);
    if (signals.some((s) => s.aborted)) throw new InterruptedError();
    try {
      return await this.agents.get(url, { headers, timeoutMs: this.options.timeoutMs, signals });
    } catch (err) {
      throw this.networkError(err, url, signals);
    }
  }

  /** Turns a socket failure into NetworkError (or InterruptedError after Ctrl-C or the caller's abort). */
  private networkError(err: unknown, url: URL, signals: readonly AbortSignal[]): CliError {
    if (signals.some((s) => s.aborted)) return new InterruptedError();
    if (err instanceof NetworkError || err instanceof InterruptedError || err instanceof MalformedResponseError) return err;
    const code = (err as { code?: string })?.code ?? '';
    const causeCode = ((err as { cause?: { code?: string } })?.cause?.code ?? '') as string;
    const host = url.host;
    const ms = this.options.timeoutMs;
    const hint = 'Check the base URL and your connection; --timeout and --retries adjust how patient the client is.';
    const details = { url: this.redact(url.href), code: code || causeCode || undefined };
    const make = (message: string, kind: 'network' | 'timeout'): NetworkError =>
      new NetworkError(message, { kind, hint, details, cause: err });
    switch (code || causeCode) {
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'CONNECT_TIMEOUT':
        return make(`Could not connect to ${host} within ${ms} ms.`, 'timeout');
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'HEADERS_TIMEOUT':
        return make(`${host} did not answer within ${ms} ms.`, 'timeout');
      case 'UND_ERR_BODY_TIMEOUT':
      case 'BODY_TIMEOUT':
        return make(`${host} stopped sending its answer for ${ms} ms.`, 'timeout');
      case 'ECONNREFUSED':
        return make(`Could not connect to ${host}: connection refused.`, 'network');
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return make(`Could not resolve the host name ${url.hostname}.`, 'network');
      case 'UND_ERR_SOCKET':
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
        return make(`The connection to ${host} was dropped before the answer was complete.`, 'network');
      default: {
        const text = err instanceof Error ? err.message : String(err);
        if (/certificate|CERT_|SSL|TLS/i.test(`${code} ${causeCode} ${text}`)) {
          return make(`Secure connection to ${host} failed: ${this.redact(text)}.`, 'network');
        }
        return make(`Request to ${host} failed: ${this.redact(text)}.`, 'network');
      }
    }
  }

  /**
   * Reads a body into memory up to `cap` bytes. Past the cap, `overCap` says what happens:
   * 'fail' (an answer we need whole) raises MalformedResponseError; 'truncate' (an error
   * body, read only to quote the server's message) keeps what arrived and drops the rest,
   * so the status still decides the outcome and whether to retry.
   */
  private async readBody(body: Readable, cap: number, overCap: 'fail' | 'truncate', url: URL, what: string, signals: readonly AbortSignal[]): Promise<Buffer> {
    let read: { bytes: Buffer; truncated: boolean };
    try {
      read = await readCapped(body, cap);
    } catch (err) {
      throw this.networkError(err, url, signals);
    }
    if (read.truncated && overCap === 'fail') {
      throw new MalformedResponseError(`The answer to ${what} is larger than ${Math.round(cap / 1024)} KiB; refusing to read it.`, {
        hint: 'The base URL may point at something other than the exercise service.',
        details: { url: this.redact(url.href), limitBytes: cap },
      });
    }
    return read.bytes;
  }

  private parseJson(bytes: Buffer, contentType: string, url: URL, what: string): unknown {
    const text = bytes.toString('utf8');
    const details = { url: this.redact(url.href), contentType: contentType || undefined };
    const hint = 'Check the base URL points at the exercise service; run with --verbose to see the request.';
    if (text.trim() === '') throw new MalformedResponseError(`The service sent an empty answer to ${what}.`, { hint, details });
    try {
      return JSON.parse(text);
    } catch {
      if (/html/i.test(contentType) || /^\s*</.test(text)) {
        throw new MalformedResponseError(`The service answered ${what} with an HTML page, not JSON.`, { hint, details });
      }
      throw new MalformedResponseError(`The answer to ${what} is not valid JSON (truncated or corrupt).`, { hint, details });
    }
  }

  /**
   * JSON GET with retries, size cap and error mapping: 401/403 → AuthError, 404 → NotFoundError,
   * 429 → RateLimitError after retries, 5xx/network/timeout → NetworkError, bad body → MalformedResponseError.
   */
  async getJson(path: string, query?: QueryValues, what = `GET ${path}`): Promise<unknown> {
    const url = this.resolve(path, query);
    const headers = this.headersFor(url, { accept: 'application/json' });
    const signals = this.signalsWith();
    const attempts = this.options.retries + 1;

    for (let attempt = 1; ; attempt++) {
      const started = nowMs();
      const tag = `(attempt ${attempt}/${attempts})`;
      let retryAfter: string | undefined;
      let failure: CliError;
      try {
        const res = await this.send(url, headers, signals);
        const status = res.statusCode;
        retryAfter = headerValue(res.headers, 'retry-after');
        const ok = status >= 200 && status < 300;
        const bytes = ok
          ? await this.readBody(res.body, JSON_SIZE_CAP, 'fail', url, what, signals)
          : await this.readBody(res.body, ERROR_BODY_CAP, 'truncate', url, what, signals);
        const ms = Math.round(nowMs() - started);
        const quota = quotaHeaders(res.headers);
        this.log(`GET ${url.href} → ${status} ${ms} ms ${tag}${quota ? ` ${quota}` : ''}`);
        if (ok) return this.parseJson(bytes, headerValue(res.headers, 'content-type') ?? '', url, what);
        failure = errorForStatus(status, what, this.redact(bytes.toString('utf8')));
        if (!RETRYABLE_STATUSES.has(status)) throw failure;
      } catch (err) {
        const ms = Math.round(nowMs() - started);
        if (!(err instanceof NetworkError) || !isRetryableError(err)) throw err;
        this.log(`GET ${url.href} → failed after ${ms} ms ${tag}: ${err.message}`);
        failure = err;
      }

      if (attempt >= attempts) throw this.finalFailure(failure, retryAfter, attempts);
      const asked = parseRetryAfter(retryAfter);
      if (asked !== undefined && asked > RETRY_AFTER_CAP_MS) {
        this.log(`not retrying: the service asks to wait ${Math.ceil(asked / 1000)} s`);
        throw this.finalFailure(failure, retryAfter, attempt);
      }
      const delay = retryDelayMs(attempt, retryAfter);
      this.log(`retrying in ${delay} ms`);
      await sleep(delay, this.options.signal);
    }
  }

  /** The error to report once retries are spent, saying how many attempts were made. */
  private finalFailure(failure: CliError, retryAfter: string | undefined, attempts: number): CliError {
    if (failure instanceof RateLimitError) {
      const asked = parseRetryAfter(retryAfter);
      const wait = asked !== undefined ? ` The service asks to wait ${Math.max(1, Math.ceil(asked / 1000))} s.` : '';
      return new RateLimitError(`${failure.message.replace(/[.:]?$/, '')} (after ${plural(attempts, 'attempt')}).${wait}`, {
        hint: failure.hint,
        details: { ...failure.details, attempts, ...(retryAfter ? { retryAfter } : {}) },
      });
    }
    return failure;
  }

  /**
   * One GET attempt, no retries, no status mapping: the media downloader drives resume and
   * retry itself. `url` may be absolute (another origin gets no key) or relative to baseUrl.
   * Connection failures and timeouts reject with NetworkError (kind 'network' | 'timeout').
   */
  async stream(url: string | URL, options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<StreamResponse> {
    const target = this.resolve(url);
    const started = nowMs();
    const res = await this.send(target, this.headersFor(target, options.headers), this.signalsWith(options.signal));
    const ms = Math.round(nowMs() - started);
    const quota = quotaHeaders(res.headers);
    const range = options.headers?.range ?? options.headers?.Range;
    this.log(`GET ${target.href}${range ? ` (${range})` : ''} → ${res.statusCode} ${ms} ms${quota ? ` ${quota}` : ''}`);
    // Socket failures while the caller reads surface as body errors; streamError() maps them.
    return { status: res.statusCode, headers: res.headers, body: res.body, url: target };
  }

  /** Maps an error raised while reading a stream() body, for callers that consume it. */
  streamError(err: unknown, url: URL, signal?: AbortSignal): CliError {
    return this.networkError(err, url, this.signalsWith(signal));
  }

  async close(): Promise<void> {
    this.agents.close();
  }
}
