/**
 * The HTTP transport: every request the client sends, as layers around one undici dispatcher
 * (exchange.ts lists them). Every request first gets the URL policy (once per origin), the API key
 * for the configured origin only, its forward proxy (proxy-env.ts) and the signals that cancel it;
 * the key is redacted from everything shown. Media streams are not retried here (the downloader
 * resumes and retries itself, with the same policy) nor under the command's deadline. The JSON
 * retry layer is here too: why not undici's own, docs/development.md "Retries are our own layer".
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

/** RateLimit-* / X-RateLimit-* / Retry-After, for --verbose: controls stripped before the line is redacted, so a key split by them is found whole. */
function quotaHeaders(headers: ResponseHeaders): string {
  return Object.entries(headers)
    .filter(([name]) => /^(x-)?ratelimit(-|$)/.test(name) || name === 'retry-after')
    .map(([name, v]) => `${name}=${safeHeaderValue(Array.isArray(v) ? v.join(',') : String(v))}`)
    .join(' ');
}

/** The settings a transport follows (config/settings-table.ts); allow-insecure is off when absent. */
export type TransportSettings = Pick<Settings, 'timeout' | 'retries'> & Partial<Pick<Settings, 'allowInsecure'>>;

/** `beforeRequest` runs before EVERY attempt, JSON and media, retries included (counting.ts). */
export interface TransportOptions extends RequestHooks {
  /** e.g. 'https://api.wrkout.xyz' or 'http://127.0.0.1:8787' (a path prefix is kept). */
  baseUrl: string;
  /** Sent as X-API-Key only to requests whose origin equals baseUrl's origin. */
  apiKey?: string;
  /** The run's settings it follows: --timeout, --retries (JSON; see retry-policy.ts), allow-insecure (plain http:// off loopback). */
  settings: TransportSettings;
  /** --verbose lines (method, URL, status, ms, retries, quota headers; key as ***). */
  log?: (line: string) => void;
  /** Ctrl-C. */
  signal?: AbortSignal;
  /** The whole command's deadline over its JSON requests (config/time-limits.ts commandDeadline); none without it. */
  commandDeadline?: CommandDeadline;
  /**
   * Where the requests go instead of a keep-alive Agent of ours (a local catalogue in-process, a
   * test's MockAgent): every rule above still applies. Its owner closes it.
   */
  dispatcher?: Dispatcher;
  /** The environment the proxy variables are read from (proxy-env.ts); none: direct. Unused with `dispatcher`. */
  proxyEnv?: ProxyEnvironment;
}

/** A JSON answer with its headers; 304 only to a request sent with validators (getJsonAnswer's `conditional`). */
export type JsonAnswer = { status: 200; body: unknown; headers: ResponseHeaders } | { status: 304; headers: ResponseHeaders };

export class Transport {
  readonly baseUrl: URL;
  private readonly options: TransportOptions;
  /** The bottom of the stack: attempts over the one undici dispatcher. */
  private readonly network: Attempts;
  /** JSON GETs: retried, read whole, under the command's deadline, counted. */
  private readonly json: Exchange<Buffer>;
  /** Media streams: counted, one attempt each. */
  private readonly media: Exchange;
  /** Replaces the key wherever it might appear (util/text.ts redactorFor), for any text shown to the user. */
  readonly redact: (text: string) => string;
  /** Origins the URL policy has let through (it depends on nothing else), so it is judged once per origin. */
  private readonly allowedOrigins = new Set<string>();
  /** The proxy for each origin asked so far (undefined: direct), chosen once per origin. */
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

  /** A URL under the base URL (keeping its path prefix), or an absolute URL as given. */
  resolve(pathOrUrl: string | URL, query?: QueryInput): URL {
    return resolveUrl(this.baseUrl, pathOrUrl, query);
  }

  private log(line: string): void {
    this.options.log?.(this.redact(line));
  }

  /** The request headers for `url`: the key goes to the configured origin and nowhere else (a media URL may point elsewhere). */
  private headersFor(url: URL, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...extra };
    if (this.options.apiKey && url.origin === this.baseUrl.origin) headers['x-api-key'] = this.options.apiKey;
    return headers;
  }

  /** The signals that cancel a request: Ctrl-C's and the caller's own. */
  private signalsWith(extra?: AbortSignal): readonly AbortSignal[] {
    return [...new Set([this.options.signal, extra])].filter((s) => s !== undefined);
  }

  /**
   * The forward proxy for `url`'s origin, chosen on its first request: a malformed proxy variable
   * stops it before it is counted, and --verbose names the proxy (credentials masked) once.
   */
  private chooseProxy(url: URL): void {
    const env = this.options.proxyEnv;
    if (!env || this.options.dispatcher || this.proxies.has(url.origin)) return;
    // No proxy variable at all (the usual case): direct, without reading the no_proxy rules.
    if (![...PROXY_VARIABLES.https, ...PROXY_VARIABLES.http].some((name) => env[name])) return;
    const choice = proxyFor(env, url);
    this.proxies.set(url.origin, choice);
    if (choice) this.log(`proxy: ${url.origin} through ${choice.shown} (${choice.variable})`);
  }

  /** The URL policy, the proxy, then the signals: a request already cancelled is neither counted nor sent. */
  private admit(url: URL, signals: readonly AbortSignal[]): void {
    this.assertAllowed(url);
    this.chooseProxy(url);
    if (signals.some((s) => s.aborted)) throw new InterruptedError();
  }

  /**
   * JSON GET with retries, size cap and error mapping: 401/403 → AuthError, 404 → NotFoundError,
   * 429 → RateLimitError after retries, 5xx/network/timeout → NetworkError, bad body → MalformedResponseError.
   */
  async getJson(path: string, query?: QueryInput, what = `GET ${path}`): Promise<unknown> {
    return ((await this.getJsonAnswer(path, query, what)) as { body?: unknown }).body;
  }

  /**
   * getJson with the answer's headers, for the response cache. With `conditional` headers
   * (If-None-Match / If-Modified-Since) a 304 is an answer too, with no body.
   */
  async getJsonAnswer(path: string, query?: QueryInput, what = `GET ${path}`, conditional?: Record<string, string>): Promise<JsonAnswer> {
    const url = this.resolve(path, query);
    const signals = this.signalsWith();
    this.admit(url, signals);
    // Under the command's deadline: attempt.ts counts its time as busy and cuts it at what is left (none once it ran out).
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
   * One media GET attempt, no retries, no status mapping: the media downloader drives resume and
   * retry itself, with the same policy. `url` may be absolute (another origin gets no key) or
   * relative to baseUrl. Failures, of the connection or of the body (handed over chunk by chunk,
   * body.ts), are NetworkErrors. Its whole life is a download's (config/time-limits.ts mediaMs), or
   * with `wholeAnswer` a request's (requestMs: the team proxy's upstream JSON answers).
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

  /** Maps an error raised while reading a dispatchStream() body, for callers that consume it. */
  streamError(err: unknown, url: URL, signal?: AbortSignal): CliError {
    return this.network.failure(err, url, this.signalsWith(signal));
  }

  async close(): Promise<void> {
    await this.network.close();
  }
}

/** `signal` (Ctrl-C) ends a wait at once; the waits count in `command`; without `log` no line is even built. */
interface RetryOptions {
  retries: number;
  signal?: AbortSignal | undefined;
  command?: CommandDeadline | undefined;
  log?: ((line: string) => void) | undefined;
  redact: (text: string) => string;
}

/** The retry layer (JSON): a retryable status that ends the retries becomes its error; any other answer is passed up as it is. */
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

/** The wait before a retry, counted in the command's deadline; a wait past what is left of it ends the command now. */
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
