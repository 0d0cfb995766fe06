/**
 * The transport against real local HTTP servers (node:http on 127.0.0.1:0): retries,
 * timeouts, the key's origin rule, size cap, body checks and redaction.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../src/http/transport.js';
import { isRetryableError, parseRetryAfter, retryDelayMs } from '../../src/http/retry-policy.js';
import { errorForStatus } from '../../src/http/failures.js';
import { AuthError, InterruptedError, MalformedResponseError, NetworkError, NotFoundError, RateLimitError, UsageError } from '../../src/errors.js';
import { closedPort } from '../helpers/closed-port.js';
import { closeAll, json, serve, transport } from './local-server.js';
import { readDispatched } from './read-dispatched.js';

afterEach(closeAll);

describe('Transport.getJson', () => {
  it('sends the key to the base origin and parses JSON', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { ok: true }));
    const t = transport({ baseUrl: url, apiKey: 'k-123' });
    await expect(t.getJson('/exercise/query', { category: ['STRENGTH', 'CARDIO'], name: undefined })).resolves.toEqual({ ok: true });
    expect(seen[0]?.headers['x-api-key']).toBe('k-123');
    expect(seen[0]?.url).toBe('/exercise/query?category=STRENGTH&category=CARDIO');
  });

  it('keeps a path prefix of the base URL', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, {}));
    await transport({ baseUrl: `${url}/api/v1/` }).getJson('/exercise/exerciseIds');
    expect(seen[0]?.url).toBe('/api/v1/exercise/exerciseIds');
  });

  it('retries 503 then succeeds, logging each attempt without the key', async () => {
    const lines: string[] = [];
    const { url, seen } = await serve((_req, res, n) => (n < 3 ? json(res, 503, { error: { code: 'x', message: 'busy' } }) : json(res, 200, [1])));
    const t = transport({ baseUrl: url, apiKey: 'secret-key', log: (l) => lines.push(l) });
    // The key can reach a log line or a message only through data: here, a query that holds it.
    await expect(t.getJson('/x', { name: 'secret-key' })).resolves.toEqual([1]);
    expect(seen).toHaveLength(3);
    expect(lines.join('\n')).toContain('attempt 3/3');
    expect(lines.join('\n')).toContain('name=***');
    expect(lines.join('\n')).not.toContain('secret-key');
  });

  it('redacts the key from a server message that echoes it', async () => {
    const { url } = await serve((req, res) => json(res, 503, { error: { code: 'x', message: `key ${String(req.headers['x-api-key'])} is over quota` } }));
    const lines: string[] = [];
    const err = await transport({ baseUrl: url, apiKey: 'secret-key', settings: { retries: 1 }, log: (l) => lines.push(l) })
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('key *** is over quota');
    expect(JSON.stringify((err as NetworkError).details)).not.toContain('secret-key');
    expect(lines.join('\n')).not.toContain('secret-key');
  });

  it('gives up on 429 after the retries, quoting Retry-After', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '0' }));
    const err = await transport({ baseUrl: url, settings: { retries: 1 } })
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toContain('slow down');
    expect(seen).toHaveLength(2);
  });

  it('does not wait out a Retry-After beyond the cap', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 429, {}, { 'retry-after': '3600' }));
    const err = await transport({ baseUrl: url, settings: { retries: 3 } })
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as Error).message).toContain('3600 s');
    expect(seen).toHaveLength(1);
  });

  it('maps 401, 403, 404 and 500 without retrying', async () => {
    const status = [401, 403, 404, 500];
    const { url, seen } = await serve((req, res) => json(res, Number(req.url!.slice(1)), { error: { code: 'c', message: `m${req.url}` } }));
    const t = transport({ baseUrl: url });
    const errors = await Promise.all(status.map((s) => t.getJson(`/${s}`).catch((e: unknown) => e)));
    expect(errors[0]).toBeInstanceOf(AuthError);
    expect(errors[1]).toBeInstanceOf(AuthError);
    expect(errors[2]).toBeInstanceOf(NotFoundError);
    expect(errors[3]).toBeInstanceOf(NetworkError);
    expect((errors[3] as Error).message).toContain('m/500');
    expect(seen).toHaveLength(4);
  });

  it('reports HTML, truncated JSON and an empty body as malformed', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>Welcome</body></html>');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"exercises":[');
      }
    });
    const t = transport({ baseUrl: url });
    for (const path of ['/html', '/cut']) {
      const err = await t.getJson(path, undefined, `GET ${path}`).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MalformedResponseError);
      expect((err as Error).message).toContain(`GET ${path}`);
    }
  });

  it('refuses a valid JSON answer over the size cap', async () => {
    const { url } = await serve((_req, res) => {
      // {"padding":"aaa…"}: well-formed JSON of 9 MiB, past the 8 MiB cap.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      res.write('{"padding":"');
      const write = (): void => {
        while (sent < 9 && res.write(chunk)) sent++;
        if (sent < 9)
          res.once('drain', () => {
            sent++;
            write();
          });
        else res.end('"}');
      };
      write();
    });
    const err = await transport({ baseUrl: url })
      .getJson('/big')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect((err as Error).message).toMatch(/GET \/big is larger than 8192 KiB/);
  });

  it('gives up on a server that never answers within the timeout', async () => {
    const { url, seen } = await serve(() => {});
    const started = Date.now();
    const err = await transport({ baseUrl: url, settings: { timeout: 300, retries: 1 } })
      .getJson('/hang')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('timeout');
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('retries a connection dropped mid-body', async () => {
    const { url, seen } = await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"exer');
        setTimeout(() => res.socket?.destroy(), 20);
      } else json(res, 200, { fine: 1 });
    });
    await expect(transport({ baseUrl: url }).getJson('/drop')).resolves.toEqual({ fine: 1 });
    expect(seen).toHaveLength(2);
  });

  it('reports a refused connection as a network error', async () => {
    const port = await closedPort();
    const err = await transport({ baseUrl: `http://127.0.0.1:${port}`, settings: { retries: 0 } })
      .getJson('/x')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toContain('refused');
  });
});

describe('Transport rules', () => {
  it('refuses plain http to a non-loopback host unless allowed', () => {
    expect(() => new Transport({ baseUrl: 'http://example.com', settings: { timeout: 1000, retries: 0 } })).toThrow(UsageError);
    expect(() => new Transport({ baseUrl: 'http://example.com', settings: { timeout: 1000, retries: 0, allowInsecure: true } })).not.toThrow();
    expect(() => new Transport({ baseUrl: 'http://localhost:1', settings: { timeout: 1000, retries: 0 } })).not.toThrow();
    expect(() => new Transport({ baseUrl: 'http://[::1]:1', settings: { timeout: 1000, retries: 0 } })).not.toThrow();
    expect(() => new Transport({ baseUrl: 'ftp://x', settings: { timeout: 1000, retries: 0 } })).toThrow(UsageError);
    expect(() => new Transport({ baseUrl: 'not a url', settings: { timeout: 1000, retries: 0 } })).toThrow(UsageError);
  });

  it('sends no key to another origin in dispatchStream()', async () => {
    const other = await serve((_req, res) => res.end('bytes'));
    const base = await serve((_req, res) => res.end('bytes'));
    const t = transport({ baseUrl: base.url, apiKey: 'k' });
    for (const target of [`${other.url}/images/a/premium/b.png`, '/images/a/premium/b.png']) {
      const res = await t.dispatchStream(target);
      await readDispatched(res.body);
      expect(res.status).toBe(200);
    }
    expect(other.seen[0]?.headers['x-api-key']).toBeUndefined();
    expect(base.seen[0]?.headers['x-api-key']).toBe('k');
  });
});

describe('retry policy', () => {
  it('backs off exponentially with jitter and honours a capped Retry-After', () => {
    for (let attempt = 1; attempt <= 4; attempt++) {
      const d = retryDelayMs(attempt);
      const step = 250 * 2 ** (attempt - 1);
      expect(d).toBeGreaterThanOrEqual(step / 2);
      expect(d).toBeLessThanOrEqual(step);
    }
    expect(retryDelayMs(1, '2')).toBe(2000);
    expect(retryDelayMs(1, '99999')).toBe(30_000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
  });

  it('classifies errors', () => {
    expect(isRetryableError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryableError(new NetworkError('x', { kind: 'timeout' }))).toBe(true);
    expect(isRetryableError(new NetworkError('x', { kind: 'server_error' }))).toBe(false);
    expect(isRetryableError(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe(false);
    expect(errorForStatus(403, 'GET /x')).toBeInstanceOf(AuthError);
    expect(errorForStatus(400, 'GET /x', '{"error":{"code":"bad","message":"limit too big"}}').message).toContain('limit too big');
  });
});

describe('Transport signals', () => {
  /** The transport's in-flight bookkeeping (attempt.ts SignalWatch), read from outside for this check only. */
  const inFlight = (t: Transport): Map<AbortSignal, unknown> =>
    (t as unknown as { network: { signals: { inFlight: Map<AbortSignal, unknown> } } }).network.signals.inFlight;

  it('keeps no per-signal state or abort listener once requests have finished', async () => {
    const { url } = await serve((_req, res) => json(res, 200, { ok: true }));
    const ctrlC = new AbortController();
    const t = transport({ baseUrl: url, signal: ctrlC.signal });
    for (let i = 0; i < 5; i++) await t.getJson('/x');
    // Each bulk job has a signal of its own; each attempt may use it again.
    for (let job = 0; job < 5; job++) {
      const jobSignal = AbortSignal.any([ctrlC.signal]);
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await t.dispatchStream('/media', { signal: jobSignal });
        await readDispatched(res.body);
        await new Promise<void>((resolve) => res.body.onClose(resolve));
      }
      expect(getEventListeners(jobSignal, 'abort')).toHaveLength(0);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(inFlight(t).size).toBe(0);
    expect(getEventListeners(ctrlC.signal, 'abort')).toHaveLength(0);
  });

  it("still aborts requests in flight on the context signal and on the caller's own", async () => {
    const { url } = await serve(() => {}); // never answers
    const ctrlC = new AbortController();
    const t = transport({ baseUrl: url, signal: ctrlC.signal, settings: { timeout: 10_000 } });
    const job = new AbortController();
    const byJob = t.dispatchStream('/a', { signal: job.signal }).catch((e: unknown) => e);
    setTimeout(() => job.abort(), 50);
    expect(await byJob).toBeInstanceOf(InterruptedError);

    const pending = [t.getJson('/b').catch((e: unknown) => e), t.dispatchStream('/c', { signal: new AbortController().signal }).catch((e: unknown) => e)];
    setTimeout(() => ctrlC.abort(), 50);
    const started = Date.now();
    for (const err of await Promise.all(pending)) expect(err).toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(5000);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the aborted requests' 'close' events
    expect(inFlight(t).size).toBe(0);
  });
});
