/**
 * The transport's types and small helpers, apart from its request loops: the options, the
 * answers it returns, how an attempt is handed to undici (a Readable or dispatch chunks), and
 * the response headers shown by --verbose.
 */
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Progress } from './agent.js';
import type { CommandDeadline } from './command-deadline.js';
import { type DispatchedBody, dispatchBody } from './dispatch-body.js';
import { safeHeaderValue } from '../cache/headers.js';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface TransportOptions {
  /** e.g. 'https://api.wrkout.xyz' or 'http://127.0.0.1:8787' (a path prefix is kept). */
  baseUrl: string;
  /** Sent as X-API-Key only to requests whose origin equals baseUrl's origin. */
  apiKey?: string;
  /** Connect, headers and body-idle timeout, each; the whole-life bounds derive from it (deadline.ts). */
  timeoutMs: number;
  /** Extra attempts for retryable failures (see retry-policy.ts). */
  retries: number;
  /** Plain http:// to a non-loopback host is refused unless true. */
  allowInsecure?: boolean;
  /** --verbose lines (method, URL, status, ms, retries, quota headers; key as ***). */
  log?: (line: string) => void;
  /** Ctrl-C. */
  signal?: AbortSignal;
  /**
   * Awaited before EVERY attempt is sent, JSON and media, retries included (the request
   * ledger counts and budgets here). Throwing (a CliError) stops the request: nothing is sent.
   */
  beforeRequest?: (url: URL) => void | Promise<void>;
  /** The whole command's deadline over its JSON requests (command-deadline.ts); none without it. */
  commandDeadline?: CommandDeadline;
  /** Called with each response's status and headers, as soon as they arrive. */
  afterResponse?: (url: URL, status: number, headers: ResponseHeaders) => void;
  /**
   * Where the requests go: by default a keep-alive Agent made on the first request (agent.ts).
   * Tests pass undici's MockAgent here, as gh's tests swap an HTTP client's transport for
   * httpmock: every rule above still applies, and nothing leaves the process. Its owner closes it.
   */
  dispatcher?: Dispatcher;
}

/** A JSON answer with its headers; 304 only to a request sent with validators (getJsonAnswer's `headers`). */
export type JsonAnswer = { status: 200; body: unknown; headers: ResponseHeaders } | { status: 304; headers: ResponseHeaders };

/** The first value of a response header (`name` in lower case), for any client-side reader of headers. */
export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * RateLimit-* / X-RateLimit-* headers, for --verbose: controls stripped (cache/headers.ts) before
 * the line is redacted, so a key split by control bytes is found whole.
 */
export function quotaHeaders(headers: ResponseHeaders): string {
  return Object.entries(headers)
    .filter(([name]) => /^(x-)?ratelimit(-|$)/.test(name) || name === 'retry-after')
    .map(([name, v]) => `${name}=${safeHeaderValue(Array.isArray(v) ? v.join(',') : String(v))}`)
    .join(' ');
}

/** A media answer whose body comes chunk by chunk from undici's dispatch (dispatch-body.ts), no Readable. */
export interface DispatchResponse {
  status: number;
  headers: ResponseHeaders;
  /** The caller must read it to its end (pumpBody) or discard() it. */
  body: DispatchedBody;
  url: URL;
}

/** How an attempt's request is handed to undici: request() (a Readable body) unless another way is given. */
export interface Issue<B> {
  send(agent: Dispatcher, options: Dispatcher.RequestOptions): Promise<{ statusCode: number; headers: unknown; body: B }>;
  /** Lets go of a body nobody will read. */
  drop(body: B): void;
}

export const DISPATCH: Issue<DispatchedBody> = {
  send: (agent, options) => dispatchBody(agent, options as Parameters<typeof dispatchBody>[1]),
  drop: (body) => body.discard(),
};

export const REQUEST: Issue<Readable> = {
  send: (agent, options) => agent.request(options),
  drop: (body) => body.on('error', () => {}).destroy(),
};

/** One attempt on its way: the answer's head, and how to end the attempt once its body is done with. */
export interface Sent<B = Readable> {
  status: number;
  headers: ResponseHeaders;
  body: B;
  /** Stops the deadline and the watch on the signals; call once the body is read or dropped. */
  finish(): void;
}

/** How one attempt is bounded (deadline.ts). */
export type Bound = { kind: 'json'; what: string } | { kind: 'media'; progress: Progress };
