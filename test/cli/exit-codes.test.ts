/**
 * Every exit code of the browse commands, in-process against the project's server with faults
 * injected through its `intercept` option: auth failures, not found, rate limits, server
 * errors, malformed bodies, hung and dropped connections, and retries that recover. A real
 * Ctrl-C to a child process is in process.test.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { jsonlIds, serverEnv } from '../helpers/fixtures.js';

type Fault = (req: IncomingMessage, res: ServerResponse, n: number) => boolean;

let server: CatalogueServer;
let fault: Fault | undefined;
let hits = 0;

beforeAll(async () => {
  server = await startServer({
    intercept: (req, res) => (fault ? fault(req, res, ++hits) : false),
  });
});
afterAll(() => server.close());
beforeEach(() => {
  fault = undefined;
  hits = 0;
  server.requests.length = 0;
});

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
  return true;
}

const errorBody = (code: string, message: string): string => JSON.stringify({ error: { code, message } });

describe('exit codes', () => {
  it('3 when no key is configured, naming the three ways and --sandbox, with no request', async () => {
    const r = await runInProcess(['ids'], { env: { EXERCISES_BASE_URL: server.url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('EXERCISES_API_KEY');
    expect(r.stderr).toContain('exercises auth login');
    expect(r.stderr).toContain('--api-key');
    expect(r.stderr).toContain('--sandbox');
    expect(server.requests).toHaveLength(0);
  });

  it('3 when the key is rejected (401), without retrying', async () => {
    const r = await runInProcess(['ids'], { env: serverEnv(server, { EXERCISES_API_KEY: 'wrong-key' }) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/401/);
    expect(server.requests).toHaveLength(1);
  });

  it('3 when the plan does not allow it (403)', async () => {
    fault = (_req, res) => send(res, 403, errorBody('forbidden', 'premium only'));
    const r = await runInProcess(['show', 'Barbell_Bench_Press'], { env: serverEnv(server) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/403/);
  });

  it('4 for an unknown exercise', async () => {
    const r = await runInProcess(['show', 'No_Such_Exercise'], { env: serverEnv(server) });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('No_Such_Exercise');
  });

  it('5 when still rate limited after the retries, honouring Retry-After', async () => {
    fault = (_req, res) => send(res, 429, errorBody('rate_limited', 'quota used up'), { 'retry-after': '1' });
    const started = Date.now();
    const r = await runInProcess(['--retries', '1', 'ids'], { env: serverEnv(server) });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('quota used up');
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // waited the second Retry-After asked for
  });

  it('6 for a 500, not retried', async () => {
    fault = (_req, res) => send(res, 500, errorBody('internal_error', 'boom'));
    const r = await runInProcess(['ids'], { env: serverEnv(server) });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('boom');
    expect(server.requests).toHaveLength(1);
  });

  it('6 for a 502 retried until the retries run out', async () => {
    fault = (_req, res) => send(res, 502, '<html>bad gateway</html>', { 'content-type': 'text/html' });
    const r = await runInProcess(['--retries', '2', 'ids'], { env: serverEnv(server) });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/502/);
    expect(server.requests).toHaveLength(3);
  });

  it('0 when the server fails twice then recovers', async () => {
    fault = (_req, res, n) => (n <= 2 ? send(res, 503, errorBody('unavailable', 'busy')) : false);
    const r = await runInProcess(['--retries', '3', 'ids', '--limit', '3', '--format', 'jsonl'], { env: serverEnv(server) });
    expect(r.code).toBe(0);
    expect(jsonlIds(r.stdout)).toHaveLength(3);
    expect(server.requests.map((q) => q.status)).toEqual([503, 503, 200]);
  });

  // A proxy's or gateway's error page can be far larger than the part of an error body the client reads.
  const bigPage = `<!doctype html><title>Error</title><body>${'<p>padding</p>'.repeat(8 * 1024)}</body>`;

  it('3 for a 401 whose HTML body is larger than the error-body cap, without retrying', async () => {
    expect(bigPage.length).toBeGreaterThan(100 * 1024);
    fault = (_req, res) => send(res, 401, bigPage, { 'content-type': 'text/html' });
    const r = await runInProcess(['ids'], { env: serverEnv(server) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/401/);
    expect(r.stderr).not.toMatch(/larger than/);
    expect(hits).toBe(1);
  });

  it('6 for a 503 whose HTML body is larger than the error-body cap, after retrying', async () => {
    fault = (_req, res) => send(res, 503, bigPage, { 'content-type': 'text/html' });
    const r = await runInProcess(['--retries', '2', 'ids'], { env: serverEnv(server) });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/503/);
    expect(r.stderr).not.toMatch(/larger than/);
    expect(hits).toBe(3);
  });

  const malformed: Array<[string, Fault, RegExp]> = [
    ['an HTML page with status 200', (_q, res) => send(res, 200, '<!doctype html><title>Hi</title>', { 'content-type': 'text/html' }), /HTML/],
    ['truncated JSON', (_q, res) => send(res, 200, '{"exercises":[{"id":"a","name":"A"}'), /not valid JSON/],
    ['a body that violates the schema', (_q, res) => send(res, 200, JSON.stringify({ exercises: [{ id: 5 }], pagination: {} })), /does not match/],
    ['an empty body', (_q, res) => send(res, 200, ''), /empty/],
  ];
  for (const [title, f, message] of malformed) {
    it(`6 for ${title}, naming the endpoint`, async () => {
      fault = f;
      const r = await runInProcess(['ids'], { env: serverEnv(server) });
      expect(r.code).toBe(6);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('/exercise/exerciseIds');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    });
  }

  it('6 within the timeout when the server never answers', async () => {
    fault = () => true; // swallow the request, answer nothing
    const started = Date.now();
    const r = await runInProcess(['--timeout', '500', '--retries', '0', 'ids'], { env: serverEnv(server), timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/did not answer within 500 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('6 when the connection drops mid-body, after retrying', async () => {
    fault = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"exercises":[');
      setTimeout(() => res.socket?.destroy(), 20);
      return true;
    };
    const r = await runInProcess(['--retries', '1', 'ids'], { env: serverEnv(server) });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/dropped/);
    expect(hits).toBe(2);
  });

  it('2 for plain http to a non-loopback host, before any request', async () => {
    const r = await runInProcess(['ids'], { env: { EXERCISES_API_KEY: 'k', EXERCISES_BASE_URL: 'http://exercises.example.com' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Refusing plain http/);
    expect(r.stderr).toContain('--allow-insecure');
  });

  it('2 for a base URL that is not a URL', async () => {
    const r = await runInProcess(['--base-url', 'not a url', 'ids'], { env: { EXERCISES_API_KEY: 'k' } });
    expect(r.code).toBe(2);
  });

  it('2 for a --timeout above the hour that `config set timeout` allows, before any request', async () => {
    for (const ms of ['3600001', '2147483648']) {
      const r = await runInProcess(['--timeout', ms, 'ids'], { env: serverEnv(server) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--timeout must be a duration such as 5s, 90m, 24h or a number of milliseconds, between 1ms and 1h/);
      expect(r.stderr).not.toMatch(/TimeoutOverflowWarning/);
    }
    expect(server.requests).toHaveLength(0);
    const hour = await runInProcess(['--timeout', '3600000', 'ids', '--limit', '1', '--format', 'jsonl'], { env: serverEnv(server) });
    expect(hour.code, hour.stderr).toBe(0);
  });

  it('2 for a --lang or EXERCISES_LANG that is not a language tag, naming where it came from, before any request', async () => {
    const flag = await runInProcess(['--lang', 'de_DE', 'ids'], { env: serverEnv(server) });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--lang must be a language tag such as en-GB or de-DE, not "de_DE"/);
    const env = await runInProcess(['show', 'Plank'], { env: serverEnv(server, { EXERCISES_LANG: 'de_DE.UTF-8' }) });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/EXERCISES_LANG must be a language tag/);
    expect(server.requests).toHaveLength(0);
    // the flag still wins over a bad variable
    const both = await runInProcess(['--lang', 'de-DE', 'ids', '--limit', '1'], { env: serverEnv(server, { EXERCISES_LANG: 'bad lang' }) });
    expect(both.code, both.stderr).toBe(0);
    expect(new URLSearchParams(server.requests[0]!.query).get('lang')).toBe('de-DE');
  });

  it('prints the error also as JSON with --format json', async () => {
    const r = await runInProcess(['show', 'Nope', '--format', 'json'], { env: serverEnv(server) });
    expect(r.code).toBe(4);
    const jsonLine = r.stderr.split('\n').find((l) => l.startsWith('{'))!;
    expect(JSON.parse(jsonLine).error).toMatchObject({ code: 'not_found', exitCode: 4 });
  });

  it('prints flag errors also as JSON with --format json', async () => {
    const r = await runInProcess(['--format', 'json', 'query', '--limit', '99'], { env: serverEnv(server) });
    expect(r.code).toBe(2);
    const jsonLine = r.stderr.split('\n').find((l) => l.startsWith('{'))!;
    expect(JSON.parse(jsonLine).error).toMatchObject({ code: 'usage', exitCode: 2 });
    expect(server.requests).toHaveLength(0);
  });

  it('130 when interrupted while waiting for the server (the signal main() aborts on Ctrl-C)', async () => {
    fault = () => true; // never answers
    const started = Date.now();
    const r = await runInProcess(['ids', '--all'], {
      env: serverEnv(server),
      timeoutMs: 15_000,
      onStart: (t) => setTimeout(() => t.abort(), 300),
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/Interrupted/);
    expect(Date.now() - started).toBeLessThan(3000); // did not wait for the 30 s timeout
  });
});
