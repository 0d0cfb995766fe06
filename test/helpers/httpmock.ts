/**
 * A fake HTTP transport for commands run in-process, as gh's tests use httpmock: undici's
 * MockAgent handed to the context (ContextOptions.dispatcher), answers registered per path,
 * every request recorded, and no connection ever made (net connect is off: a request nobody
 * registered fails as a network error would). The client, the response cache, the request
 * ledger and the transport's own rules (status mapping, retries, redaction) all still run.
 */
import { MockAgent } from 'undici';

/** The base URL the fake answers for: a reserved name (RFC 2606), never resolved. */
export const FAKE_BASE_URL = 'https://exercises.example';
export const FAKE_KEY = 'fake-key-0123456789';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** How many requests this answer serves (default 1); `Infinity` for every one. */
  times?: number;
}

/** A path, or a test of the path with its query string (`/exercise/query?muscle=CHEST`). */
export type PathMatch = string | RegExp | ((pathWithQuery: string) => boolean);

export interface HttpMock {
  readonly agent: MockAgent;
  /** Answers GET `path` with `body` as JSON. */
  json(path: PathMatch, body: unknown, reply?: Reply): void;
  /** Answers GET `path` with an error body as the catalogue service words it. */
  error(path: PathMatch, status: number, code: string, message: string, reply?: Reply): void;
  /** Answers GET `path` with raw bytes (media). */
  bytes(path: PathMatch, body: Buffer, contentType: string, reply?: Reply): void;
  /** The paths (with query strings) requested so far, in order. */
  requests(): string[];
  /** The headers of the n-th request (0-based). */
  headersOf(n: number): Record<string, string>;
  /**
   * Throws, naming them, when answers registered were not all asked for (each as many times as
   * registered; an `Infinity` one at least once), as gh's httpmock Registry.Verify: a stub no
   * request reached means the test did not test what it says. fakeRun() calls it after each test.
   */
  verify(): void;
  close(): Promise<void>;
}

function matcher(path: PathMatch): string | RegExp | ((p: string) => boolean) {
  // A bare path matches with or without a query string.
  return typeof path === 'string' ? (p: string) => p === path || p.startsWith(`${path}?`) : path;
}

export function httpmock(baseUrl = FAKE_BASE_URL): HttpMock {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const pool = agent.get(new URL(baseUrl).origin);
  const answer = (path: PathMatch, status: number, body: string | Buffer, headers: Record<string, string>, reply: Reply = {}): void => {
    const scope = pool.intercept({ path: matcher(path), method: 'GET' }).reply(reply.status ?? status, body, { headers: { ...headers, ...reply.headers } });
    const times = reply.times ?? 1;
    if (times === Infinity) scope.persist();
    else if (times > 1) scope.times(times);
  };
  const calls = () => agent.getCallHistory()?.calls() ?? [];
  return {
    agent,
    json: (path, body, reply) => answer(path, 200, JSON.stringify(body), { 'content-type': 'application/json' }, reply),
    error: (path, status, code, message, reply) =>
      answer(
        path,
        status,
        JSON.stringify({ error: { code, message } }),
        { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) },
        reply,
      ),
    bytes: (path, body, contentType, reply) =>
      answer(path, 200, body, { 'content-type': contentType, 'content-length': String(body.length), 'accept-ranges': 'bytes', etag: '"v1"' }, reply),
    requests: () => calls().map((c) => new URL(c.fullUrl).pathname + new URL(c.fullUrl).search),
    headersOf: (n) => {
      const headers = calls()[n]?.headers;
      return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    },
    verify: () => agent.assertNoPendingInterceptors(),
    close: () => agent.close(),
  };
}
