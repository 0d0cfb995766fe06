/**
 * The HTTP transport: every request the client sends, over undici (agent.ts; undici itself is
 * loaded only when a request really goes out). One attempt up to its response headers is
 * send-attempt.ts's, the JSON retry loop json-get.ts's; the media attempt and the state they
 * share (the Agent, the signals, the origins allowed) are here. It adds the API key header for the configured origin only, the
 * URL policy (url-policy.ts), a bound on each request's whole life (deadline.ts), the one retry
 * policy (retry-policy.ts) for JSON, a response size cap, error mapping (status-errors.ts,
 * network-errors.ts), the key redacted from everything shown (redact.ts), --verbose request
 * lines, and the hooks the request ledger needs. JSON requests and media streams share one
 * keep-alive Agent and these rules.
 *
 * The --verbose lines are written by the loops here rather than from undici's diagnostics
 * channels (undici:request:create, :headers…): those are process-wide, carrying every
 * transport's requests (and, under --sandbox, none of ours to tell apart), so each message
 * would have to be matched back to its transport and attempt; the loop knows the attempt
 * number, the time to the last body byte, and whether it will retry.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import {
  type Bound,
  DISPATCH,
  type DispatchResponse,
  type Issue,
  type JsonAnswer,
  type ResponseHeaders,
  type Sent,
  type TransportOptions,
  quotaHeaders,
} from './transport-types.js';
import { type CliError, InterruptedError } from '../errors.js';
import { SignalWatch } from './attempt.js';
import { nowMs } from './deadline.js';
import { networkError } from './network-errors.js';
import { createAgent } from './agent.js';
import { type AttemptContext, sendAttempt } from './send-attempt.js';
import { type JsonAttemptContext, getJsonWithRetries } from './json-get.js';
import { redactorFor } from '../util/redact.js';
import { assertAllowedUrl, parseBaseUrl } from '../util/url-policy.js';
import { readCappedBody } from './json-body.js';
import { type QueryValues, resolveUrl } from './resolve-url.js';

export { headerValue } from './transport-types.js';
export type { DispatchResponse, JsonAnswer, ResponseHeaders, TransportOptions } from './transport-types.js';

const USER_AGENT = 'exercises-cli';

export class Transport {
  readonly baseUrl: URL;
  private readonly options: TransportOptions;
  /** The keep-alive undici Agent for every request, JSON and media alike; made on the first one. */
  private dispatcher: Promise<Dispatcher> | undefined;
  /** The same, once made (no await per request then). */
  private ready: Dispatcher | undefined;
  /** The attempts in flight, by the signals that cancel them. */
  private readonly signals = new SignalWatch();
  private readonly redactKey: (text: string) => string;
  /** Origins the URL policy has let through (it depends on nothing else), so it is judged once per origin. */
  private readonly allowedOrigins = new Set<string>();

  constructor(options: TransportOptions) {
    this.options = options;
    this.redactKey = redactorFor(options.apiKey);
    this.baseUrl = parseBaseUrl(options.baseUrl);
    this.assertAllowed(this.baseUrl);
  }

  private assertAllowed(url: URL): void {
    if (this.allowedOrigins.has(url.origin)) return;
    assertAllowedUrl(url, this.options.allowInsecure);
    this.allowedOrigins.add(url.origin);
  }

  /** A URL under the base URL (keeping its path prefix), or an absolute URL as given. */
  resolve(pathOrUrl: string | URL, query?: QueryValues): URL {
    return resolveUrl(this.baseUrl, pathOrUrl, query);
  }

  /** Replaces the key wherever it might appear (redact.ts), for any text shown to the user. */
  redact(text: string): string {
    return this.redactKey(text);
  }

  /** --verbose is on: log lines are built only then. */
  private get verbose(): boolean {
    return this.options.log !== undefined;
  }

  private log(line: string): void {
    this.options.log?.(this.redactKey(line));
  }

  private headersFor(url: URL, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...extra };
    // The key goes to the configured origin and nowhere else (a media URL may point elsewhere).
    if (this.options.apiKey && url.origin === this.baseUrl.origin) headers['x-api-key'] = this.options.apiKey;
    return headers;
  }

  /** The signals that cancel a request: Ctrl-C's and the caller's own. */
  private signalsWith(extra?: AbortSignal): readonly AbortSignal[] {
    const own = this.options.signal;
    if (!extra || extra === own) return own ? [own] : [];
    return own ? [own, extra] : [extra];
  }

  /** What an attempt needs of this transport (send-attempt.ts). */
  private readonly attempts: AttemptContext = {
    options: () => this.options,
    signals: this.signals,
    assertAllowed: (url) => this.assertAllowed(url),
    ready: () => this.ready,
    agent: () => this.agent(),
    networkError: (err, url, signals) => this.networkError(err, url, signals),
    redact: (text) => this.redact(text),
  };

  /** What the JSON retry loop needs of this transport (json-get.ts). */
  private readonly jsonAttempts: JsonAttemptContext = {
    options: () => this.options,
    send: (url, headers, signals, bound) => this.send(url, headers, signals, bound),
    readBody: (body, cap, overCap, url, what, signals) => this.readBody(body, cap, overCap, url, what, signals),
    verbose: () => this.verbose,
    log: (line) => this.log(line),
    redact: (text) => this.redactKey(text),
  };

  private agent(): Promise<Dispatcher> {
    const given = this.options.dispatcher;
    if (given) return Promise.resolve((this.ready = given));
    if (!this.dispatcher) {
      const made = createAgent(this.options.timeoutMs);
      this.dispatcher = made;
      // Unless close() came first: then the next request makes a new one.
      made.then(
        (agent) => this.dispatcher === made && (this.ready = agent),
        () => {},
      );
    }
    return this.dispatcher;
  }

  private networkError(err: unknown, url: URL, signals: readonly AbortSignal[]): CliError {
    if (signals.some((s) => s.aborted)) return new InterruptedError();
    return networkError(err, url, this.options.timeoutMs, (text) => this.redact(text));
  }

  /** One GET attempt, up to the response headers (send-attempt.ts). */
  private send<B = Readable>(url: URL, headers: Record<string, string>, signals: readonly AbortSignal[], bound: Bound, issue?: Issue<B>): Promise<Sent<B>> {
    return sendAttempt(this.attempts, url, headers, signals, bound, issue);
  }

  /** readCappedBody with this transport's error mapping and redaction. */
  private async readBody(body: Readable, cap: number, overCap: 'fail' | 'truncate', url: URL, what: string, signals: readonly AbortSignal[]): Promise<Buffer> {
    return readCappedBody(body, cap, overCap, url, what, { networkError: (err) => this.networkError(err, url, signals), redact: this.redactKey });
  }

  /**
   * JSON GET with retries, size cap and error mapping: 401/403 → AuthError, 404 → NotFoundError,
   * 429 → RateLimitError after retries, 5xx/network/timeout → NetworkError, bad body → MalformedResponseError.
   */
  async getJson(path: string, query?: QueryValues, what = `GET ${path}`): Promise<unknown> {
    const answer = await this.getJsonAnswer(path, query, what);
    return answer.status === 200 ? answer.body : undefined;
  }

  /**
   * getJson with the answer's headers, for the response cache. With `conditional` headers
   * (If-None-Match / If-Modified-Since) a 304 is an answer too, with no body.
   */
  async getJsonAnswer(path: string, query?: QueryValues, what = `GET ${path}`, conditional?: Record<string, string>): Promise<JsonAnswer> {
    const url = this.resolve(path, query);
    const headers = this.headersFor(url, { accept: 'application/json', ...conditional });
    const signals = this.signalsWith();
    return getJsonWithRetries(this.jsonAttempts, { url, headers, signals, what, ...(conditional ? { conditional } : {}) });
  }

  /**
   * One media GET attempt, no retries, no status mapping: the media downloader drives resume and
   * retry itself, with the same policy (retry-policy.ts decideRetry). `url` may be absolute
   * (another origin gets no key) or relative to baseUrl. Connection failures and timeouts
   * reject with NetworkError (kind 'network' | 'timeout'). The body is handed over chunk by
   * chunk through undici's dispatch (dispatch-body.ts), no Readable, straight into the body
   * pump; body failures reach the pump's consumer, for streamError(). Its whole life is bounded
   * by the media rule of deadline.ts (a minimum average rate after a grace): past it, the body
   * fails with NetworkError kind 'timeout'.
   */
  async dispatchStream(url: string | URL, options: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<DispatchResponse> {
    const target = this.resolve(url);
    const started = nowMs();
    const signals = this.signalsWith(options.signal);
    const res = await this.send(target, this.headersFor(target, options.headers), signals, { kind: 'media', progress: { bytes: 0 } }, DISPATCH);
    res.body.onClose(res.finish);
    this.logStream(target, res, started, options.headers);
    return { status: res.status, headers: res.headers, body: res.body, url: target };
  }

  /** The --verbose line of a media request, once its head arrived. */
  private logStream(target: URL, res: { status: number; headers: ResponseHeaders }, started: number, headers: Record<string, string> | undefined): void {
    if (!this.verbose) return;
    const quota = quotaHeaders(res.headers);
    const range = headers?.range ?? headers?.Range;
    this.log(`GET ${target.href}${range ? ` (${range})` : ''} → ${res.status} ${Math.round(nowMs() - started)} ms${quota ? ` ${quota}` : ''}`);
  }

  /** Maps an error raised while reading a dispatchStream() body, for callers that consume it. */
  streamError(err: unknown, url: URL, signal?: AbortSignal): CliError {
    return this.networkError(err, url, this.signalsWith(signal));
  }

  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    this.ready = undefined;
    if (dispatcher) await (await dispatcher).destroy();
  }
}
