/**
 * One upstream request per answer: concurrent identical misses coalesced; revalidation with
 * the stored ETag; a failing upstream answered from a stale entry (Warning), else 502; an error
 * or a truncated upstream body never stored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { type ProxyFixture, startProxy } from './proxy-helpers.js';
import { startServer } from '../helpers/server.js';

let f: ProxyFixture | undefined;
afterEach(async () => {
  await f?.stop();
  f = undefined;
});

describe('misses', () => {
  test('50 concurrent identical misses cost one upstream request, and every client gets the same answer', async () => {
    f = await startProxy();
    const proxy = f;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => proxy.get('/exercise/query?category=STRENGTH&limit=10').then(async (r) => [r.status, await r.text()] as const)),
    );
    expect(f.upstreamCount()).toBe(1);
    expect(new Set(answers.map(([status]) => status))).toEqual(new Set([200]));
    expect(new Set(answers.map(([, body]) => body)).size).toBe(1);
    const outcomes = f.log.map((l) => l.split(' ')[5]);
    expect(outcomes.filter((o) => o === 'miss')).toHaveLength(1);
    expect(outcomes.every((o) => o === 'miss' || o === 'coalesced' || o === 'hit')).toBe(true);
  });

  test('a stale answer is revalidated with its ETag: a 304 upstream, the stored body to the client', async () => {
    f = await startProxy({ cacheTtl: 0 });
    const first = await (await f.get('/exercise/Push_Up')).text();
    const second = await f.get('/exercise/Push_Up');
    expect(await second.text()).toBe(first);
    expect(f.upstreamCount()).toBe(2);
    const revalidation = f.upstream.requests.at(-1)!;
    expect(revalidation.status).toBe(304);
    expect(f.log.at(-1)).toMatch(/ 200 revalidated /);
  });

  test('upstream down: a stale answer is served with a Warning; with nothing stored, 502 with a clear body', async () => {
    const upstream = await startServer();
    f = await startProxy({ upstream, cacheTtl: 0, upstreamTimeoutMs: 1_000 });
    const fresh = await (await f.get('/exercise/Pull_Up')).text();
    await upstream.close();
    const stale = await f.get('/exercise/Pull_Up');
    expect(stale.status).toBe(200);
    expect(stale.headers.get('warning')).toMatch(/^111 /);
    expect(stale.headers.get('age')).toMatch(/^\d+$/);
    expect(await stale.text()).toBe(fresh);
    expect(f.log.at(-1)).toMatch(/ 200 stale /);

    const none = await f.get('/exercise/Push_Up');
    expect(none.status).toBe(502);
    const body = (await none.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bad_gateway');
    expect(body.error.message).toMatch(/cannot be reached.*no stored answer/);
  });

  test('an upstream error is passed on or turned into 502, and never stored', async () => {
    let failing = true;
    const upstream = await startServer({
      intercept: (req: IncomingMessage, res: ServerResponse) => {
        if (!failing || !req.url?.startsWith('/exercise/Plank')) return false;
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"down for a moment"}}');
        return true;
      },
    });
    f = await startProxy({ upstream });
    expect((await f.get('/exercise/Plank')).status).toBe(502);
    expect((await f.get('/exercise/No_Such_Thing')).status).toBe(404);
    failing = false;
    const ok = await f.get('/exercise/Plank');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { id: string }).id).toBe('Plank');
    expect(f.upstreamCount()).toBe(3);
    await upstream.close();
  });

  test('a truncated upstream body is never stored nor served: 502, and the next request asks again', async () => {
    let truncate = true;
    const upstream = await startServer({
      intercept: (req: IncomingMessage, res: ServerResponse) => {
        if (!truncate || !req.url?.startsWith('/exercise/Box_Jump')) return false;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.write('{"id":"Box_Jump","name":"Box');
        setTimeout(() => res.destroy(), 20);
        return true;
      },
    });
    f = await startProxy({ upstream });
    const cut = await f.get('/exercise/Box_Jump');
    expect(cut.status).toBe(502);
    expect(((await cut.json()) as { error: { message: string } }).error.message).toMatch(/incomplete/);
    truncate = false;
    const whole = await f.get('/exercise/Box_Jump');
    expect(whole.status).toBe(200);
    expect(((await whole.json()) as { id: string }).id).toBe('Box_Jump');
    expect(f.upstreamCount()).toBe(2);
    await upstream.close();
  });
});
