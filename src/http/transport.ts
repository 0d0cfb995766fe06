/**
 * The HTTP transport: every request as layers around one undici dispatcher (exchange.ts lists them).
 * Each gets the URL policy, the API key for the configured origin only, its forward proxy and the signals
 * that cancel it; the key is redacted from all shown. Media streams are retried by the downloader, not here.
 */
import type { Dispatcher } from 'undici';
import type { Settings } from '../config/settings.js';
import type { DispatchResponse, Exchange, ResponseHeaders } from './exchange.js';
import { type CliError, InterruptedError, NetworkError } from '../errors.js';
import { Attempts } from './attempt.js';
import { type RequestHooks, counting } from './counting.js';
import { type CommandDeadline, isCommandDeadline, nowMs } from '../config/time-limits.js';
import { parseJsonBody, wholeBodies } from './body.js';
import { RETRYABLE_STATUSES, decideRetry, isRetryableError, sleep } from './retry-policy.js';
import { errorForStatus } from './failures.js';
import { redactorFor } from '../util/text.js';
import { assertAllowedUrl, parseBaseUrl } from '../util/url-policy.js';
import { type QueryInput, resolveUrl } from '../cache/cached-get.js';
import { PROXY_VARIABLES, type ProxyChoice, type ProxyEnvironment, proxyFor } from './proxy-env.js';
import { safeHeaderValue } from '../cache/headers.js';

export type { DispatchResponse, ResponseHeaders } from './exchange.js';

const USER_AGENT = 'exercises-cli';

/** The first value of a response header (`name` in lower case). */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** RateLimit-* / X-RateLimit-* / Retry-After for --verbose, controls stripped before redaction. */
function quotaHeaders(headers: ResponseHeaders): string {
  return Object.entries(headers)
    .filter(([name]) => /^(x-)?ratelimit(-|$)/.test(name) || name === 'retry-after')
    .map(([name, v]) => `${name}=${safeHeaderValue(Array.isArray(v) ? v.join(',') : String(v))}`)
    .join(' ');
}

export type TransportSettings = Pick<Settings, 'timeout' | 'retries'> & Partial<Pick<Settings, 'allowInsecure'>>;

/** `beforeRequest` runs before every attempt, JSON and media, retries included. */
export interface TransportOptions extends RequestHooks {
  /** A path prefix is kept. */
  baseUrl: string;
  /** Sent as X-API-Key only to requests whose origin equals baseUrl's origin. */
  apiKey?: string;
  /** --timeout, --retries (JSON), allow-insecure. */
  settings: TransportSettings;
  /** --verbose lines (key as ***). */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** The command's deadline over its JSON requests; none without it. */
  commandDeadline?: CommandDeadline;
  /** Where requests go instead of an Agent of ours (a local catalogue, a test's MockAgent); every rule still applies. Its owner closes it. */
  dispatcher?: Dispatcher;
  /** The environment the proxy variables are read from; none: direct. */
  proxyEnv?: ProxyEnvironment;
}

/** A JSON answer with its headers; 304 only to a conditional request. */
export type JsonAnswer = { status: 200; body: unknown; headers: ResponseHeaders } | { status: 304; headers: ResponseHeaders };

export class Transport {
  readonly baseUrl: URL;
  private readonly options: TransportOptions;
  private readonly network: Attempts;
  private readonly json: Exchange<Buffer>;
  private readonly media: Exchange;
  /** Replaces the key wherever it might appear in text shown. */
  readonly redact: (text: string) => string;
  /** Origins the URL policy let through: judged once per origin. */
  private readonly allowedOrigins = new Set<string>();
  /** The proxy chosen for each origin (undefined: direct). */
  private readonly proxies = new Map<string, ProxyChoice | undefined>();

  constructor(options: TransportOptions) {
    this.options = options;
    const redact = (this.redact = redactorFor(options.apiKey));
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.assertAllowed(this.baseUrl);

    this.network = new Attempts({
      settings: options.settings,
      dispatcher: options.dispatcher,
      redact,
      proxyFor: (url) => this.proxies.get(url.origin),
    });
    this.media = counting(this.network.send, options);
    const command = options.commandDeadline;
    const log = options.log ? (line: string): void => this.log(line) : undefined;
    this.json = retrying(wholeBodies(this.media, redact), { retries: options.settings.retries, signal: options.signal, command, log, redact });
  }

  private assertAllowed(url: URL): void {
    if (this.allowedOrigins.has(url.origin)) return;
    assertAllowedUrl(url, this.options.settings.allowInsecure);
    this.allowedOrigins.add(url.origin);
  }

  resolve(pathOrUrl: string | URL, query?: QueryInput): URL {
    return resolveUrl(this.baseUrl, pathOrUrl, query);
  }

  private log(line: string): void {
    this.options.log?.(this.redact(line));
  }

  /** The request headers for `url`: the key goes to the configured origin only. */
  private headersFor(url: URL, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...extra };
    if (this.options.apiKey && url.origin === this.baseUrl.origin) headers['x-api-key'] = this.options.apiKey;
    return headers;
  }

  private signalsWith(extra?: AbortSignal): readonly AbortSignal[] {
    return [...new Set([this.options.signal, extra])].filter((s) => s !== undefined);
  }

  /** The forward proxy for `url`'s origin, on its first request: a bad variable stops it before it is counted; --verbose names it once. */
  private chooseProxy(url: URL): void {
    const env = this.options.proxyEnv;
    if (!env || this.options.dispatcher || this.proxies.has(url.origin)) return;
    // No proxy variable at all: direct.
    if (![...PROXY_VARIABLES.https, ...PROXY_VARIABLES.http].some((name) => env[name])) return;
    const choice = proxyFor(env, url);
    this.proxies.set(url.origin, choice);
    if (choice) this.log(`proxy: ${url.origin} through ${choice.shown} (${choice.variable})`);
  }

  /** The URL policy, the proxy, the signals: a request already cancelled is neither counted nor sent. */
  private admit(url: URL, signals: readonly AbortSignal[]): void {
    this.assertAllowed(url);
    this.chooseProxy(url);
    if (signals.some((s) => s.aborted)) throw new InterruptedError();
  }

  /** JSON GET with retries, size cap and error mapping (401/403, 404, 429, 5xx and network, bad body). */
  async getJson(path: string, query?: QueryInput, what = `GET ${path}`): Promise<unknown> {
    return ((await this.getJsonAnswer(path, query, what)) as { body?: unknown }).body;
  }

  /** getJson with the answer's headers; with `conditional` headers a 304 is an answer too. */
  async getJsonAnswer(path: string, query?: QueryInput, what = `GET ${path}`, conditional?: Record<string, string>): Promise<JsonAnswer> {
    const url = this.resolve(path, query);
    const signals = this.signalsWith();
    this.admit(url, signals);
    // Under the command's deadline: its time counts as busy, cut at what is left.
    const command = this.options.commandDeadline;
    const res = await this.json({
      url,
      headers: this.headersFor(url, { accept: 'application/json', ...conditional }),
      what,
      signals,
      ...(command && { command }),
    });
    const headers = res.headers;
    if (res.status >= 200 && res.status < 300) {
      return { status: 200, body: parseJsonBody(res.body, headerValue(headers, 'content-type') ?? '', url, what, this.redact), headers };
    }
    if (res.status === 304 && conditional !== undefined) return { status: 304, headers };
    throw errorForStatus(res.status, what, this.redact(res.body.toString('utf8')), this.redact);
  }

  /**
   * One media GET attempt, no retries, no status mapping (the downloader resumes and retries). Another
   * origin gets no key. Failures are NetworkErrors. Its whole life is a download's, or with `wholeAnswer` a request's.
   */
  async dispatchStream(
    url: string | URL,
    options: { headers?: Record<string, string>; signal?: AbortSignal; minBytesPerSecond?: number; wholeAnswer?: boolean } = {},
  ): Promise<DispatchResponse> {
    const target = this.resolve(url);
    const signals = this.signalsWith(options.signal);
    this.admit(target, signals);
    const started = nowMs();
    const res = await this.media({
      url: target,
      headers: this.headersFor(target, options.headers),
      what: target.pathname,
      signals,
      ...(options.wholeAnswer
        ? {}
        : { progress: { bytes: 0, ...(options.minBytesPerSecond !== undefined ? { minBytesPerSecond: options.minBytesPerSecond } : {}) } }),
    });
    if (this.options.log) {
      const quota = quotaHeaders(res.headers);
      const range = options.headers?.range ?? options.headers?.Range;
      this.log(`GET ${target.href}${range ? ` (${range})` : ''} → ${res.status} ${Math.round(nowMs() - started)} ms${quota ? ` ${quota}` : ''}`);
    }
    return { status: res.status, headers: res.headers, body: res.body, url: target };
  }

  /** Maps an error raised while reading a dispatchStream() body. */
  streamError(err: unknown, url: URL, signal?: AbortSignal): CliError {
    return this.network.failure(err, url, this.signalsWith(signal));
  }

  async close(): Promise<void> {
    await this.network.close();
  }
}

/** `signal` ends a wait at once; waits count in `command`; without `log` no line is built. */
interface RetryOptions {
  retries: number;
  signal?: AbortSignal | undefined;
  command?: CommandDeadline | undefined;
  log?: ((line: string) => void) | undefined;
  redact: (text: string) => string;
}

/** The JSON retry layer: a retryable status that ends the retries becomes its error; other answers pass up. */
export function retrying(next: Exchange<Buffer>, options: RetryOptions): Exchange<Buffer> {
  const { retries, log, redact } = options;
  const planned = retries + 1;
  return async (request) => {
    const { url, what } = request;
    for (let attempt = 1; ; attempt++) {
      const started = nowMs();
      let retryAfter: string | undefined;
      let failure: CliError;
      try {
        const res = await next(request);
        retryAfter = headerValue(res.headers, 'retry-after');
        if (log) {
          const quota = quotaHeaders(res.headers);
          log(`GET ${url.href} → ${res.status} ${Math.round(nowMs() - started)} ms (attempt ${attempt}/${planned})${quota ? ` ${quota}` : ''}`);
        }
        if (!RETRYABLE_STATUSES.has(res.status)) return res;
        failure = errorForStatus(res.status, what, redact(res.body.toString('utf8')), redact);
      } catch (err) {
        if (!(err instanceof NetworkError) || !isRetryableError(err) || isCommandDeadline(err)) throw err;
        log?.(`GET ${url.href} → failed after ${Math.round(nowMs() - started)} ms (attempt ${attempt}/${planned}): ${err.message}`);
        failure = err;
      }

      const decision = decideRetry({ attempts: attempt }, retries, failure, retryAfter);
      if (!decision.retry) {
        if (attempt < planned) log?.(`not retrying: ${decision.error.message}`);
        throw decision.error;
      }
      await waitToRetry(options, decision.delayMs, what, retryAfter);
    }
  };
}

/** The wait before a retry, counted in the deadline; one past what is left ends the command now. */
async function waitToRetry(options: RetryOptions, delayMs: number, what: string, retryAfter: string | undefined): Promise<void> {
  const command = options.command;
  if (command && delayMs >= command.remainingMs()) {
    const asked = retryAfter !== undefined ? `the service asked to wait ${Math.round(delayMs / 1000)} s (Retry-After)` : `a retry would wait ${delayMs} ms`;
    throw command.error(what, `before the next attempt: ${asked}`);
  }
  options.log?.(`retrying in ${delayMs} ms`);
  const endBusy = command?.begin();
  try {
    await sleep(delayMs, options.signal);
  } finally {
    endBusy?.();
  }
}
