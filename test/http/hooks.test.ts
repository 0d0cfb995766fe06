/**
 * The transport's hooks for the request ledger: beforeRequest awaited before every attempt
 * (retries and media streams included; throwing stops the request before anything is sent),
 * afterResponse with each response's status and headers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError, RateLimitError } from '../../src/errors.js';
import type { ResponseHeaders } from '../../src/http/transport.js';
import { closeAll, json, serve, transport } from './local-server.js';
import { readDispatched } from './read-dispatched.js';

afterEach(closeAll);

describe('beforeRequest', () => {
  it('is awaited before every attempt, so each attempt reaches the server only after it', async () => {
    const events: string[] = [];
    const { url, seen } = await serve((_req, res, n) => {
      events.push(`server ${n}`);
      if (n < 3) json(res, 503, {});
      else json(res, 200, { ok: true });
    });
    const t = transport({
      baseUrl: url,
      settings: { retries: 2 },
      beforeRequest: async (u) => {
        events.push(`hook ${u.pathname} start`);
        await new Promise((r) => setTimeout(r, 30));
        events.push(`hook ${u.pathname} done`);
      },
    });
    await expect(t.getJson('/exercise/x')).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(3);
    expect(events).toEqual([
      'hook /exercise/x start',
      'hook /exercise/x done',
      'server 1',
      'hook /exercise/x start',
      'hook /exercise/x done',
      'server 2',
      'hook /exercise/x start',
      'hook /exercise/x done',
      'server 3',
    ]);
  });

  it("stops the request when it throws: nothing is sent, the error is the hook's", async () => {
    const { url, seen } = await serve((_req, res) => json(res, 503, {}));
    let calls = 0;
    const budget = new RateLimitError("The month's budget of requests is spent.");
    const t = transport({
      baseUrl: url,
      settings: { retries: 3 },
      beforeRequest: () => {
        calls += 1;
        if (calls === 2) throw budget;
      },
    });
    // First attempt sent (503), the second stopped by the hook before it went out.
    await expect(t.getJson('/x')).rejects.toBe(budget);
    expect(seen).toHaveLength(1);

    calls = 1;
    await expect(t.dispatchStream('/images/a/premium/b.png')).rejects.toBe(budget);
    expect(seen).toHaveLength(1);
  });

  it('an abort while it is awaited stops the request: nothing is sent', async () => {
    const { url, seen } = await serve(() => {}); // would never answer
    const t = transport({ baseUrl: url, settings: { timeout: 10_000 }, beforeRequest: () => new Promise((r) => setTimeout(r, 100)) });
    const job = new AbortController();
    setTimeout(() => job.abort(), 20);
    const started = Date.now();
    await expect(t.dispatchStream('/images/a/premium/b.png', { signal: job.signal })).rejects.toBeInstanceOf(InterruptedError);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen).toHaveLength(0);
  });

  it('runs before each media stream', async () => {
    const { url, seen } = await serve((_req, res) => res.end('bytes'));
    const asked: string[] = [];
    const t = transport({ baseUrl: url, beforeRequest: (u) => void asked.push(u.href) });
    const res = await t.dispatchStream('/images/a/premium/b.png', { headers: { range: 'bytes=0-' } });
    await readDispatched(res.body);
    expect(asked).toEqual([`${url}/images/a/premium/b.png`]);
    expect(seen).toHaveLength(1);
  });
});

describe('afterResponse', () => {
  it("sees each response's status and headers, retries included", async () => {
    const { url } = await serve((_req, res, n) => json(res, n < 2 ? 429 : 200, { n }, { 'x-ratelimit-remaining': String(10 - n), 'retry-after': '0' }));
    const seen: Array<{ path: string; status: number; remaining: ResponseHeaders[string] }> = [];
    const t = transport({
      baseUrl: url,
      settings: { retries: 2 },
      afterResponse: (u, status, headers) => seen.push({ path: u.pathname, status, remaining: headers['x-ratelimit-remaining'] }),
    });
    await expect(t.getJson('/exercise/x')).resolves.toEqual({ n: 2 });
    const media = await t.dispatchStream('/images/a/premium/b.png');
    await readDispatched(media.body);
    expect(seen).toEqual([
      { path: '/exercise/x', status: 429, remaining: '9' },
      { path: '/exercise/x', status: 200, remaining: '8' },
      { path: '/images/a/premium/b.png', status: 200, remaining: '7' },
    ]);
  });
});
