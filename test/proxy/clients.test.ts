/**
 * Two clients with their own keys and plans through one proxy: what each sees, 401 for a key
 * the proxy does not know, /-/status, the access log, and the upstream key kept away from every
 * answer, log line and file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer } from '../helpers/server.js';
import { ALICE, GUEST, type ProxyFixture, UPSTREAM_KEY, startProxy } from './proxy-helpers.js';

let f: ProxyFixture;
beforeAll(async () => {
  f = await startProxy();
});
afterAll(async () => {
  await f.stop();
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('two clients, two plans', () => {
  test('the premium client gets the premium lists; the free client the same answer without them, from the same upstream request', async () => {
    const before = f.upstreamCount();
    const premium = (await (await f.get('/exercise/query?primaryMuscle=CHEST', ALICE)).json()) as { exercises: Array<Record<string, unknown>> };
    const free = (await (await f.get('/exercise/query?primaryMuscle=CHEST', GUEST)).json()) as { exercises: Array<Record<string, unknown>> };
    expect(f.upstreamCount() - before).toBe(1);
    expect(premium.exercises.length).toBeGreaterThan(0);
    expect(premium.exercises.some((e) => Array.isArray(e.premiumImages) && e.premiumImages.length > 0)).toBe(true);
    expect(free.exercises.map((e) => e.id)).toEqual(premium.exercises.map((e) => e.id));
    for (const e of free.exercises) {
      expect(e).not.toHaveProperty('premiumImages');
      expect(e).not.toHaveProperty('premiumVideos');
    }
  });

  test('a free client never sees premium fields in a record, and gets 403 on media without an upstream request', async () => {
    const record = (await (await f.get('/exercise/Push_Up', GUEST)).json()) as Record<string, unknown>;
    expect(record.id).toBe('Push_Up');
    expect(record).not.toHaveProperty('premiumImages');
    const before = f.upstreamCount();
    const media = await f.get('/images/Push_Up/premium/start.png', GUEST);
    expect(media.status).toBe(403);
    expect(((await media.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    expect(f.upstreamCount()).toBe(before);
  });

  test('the free answer has an ETag of its own, honoured with a 304', async () => {
    const premium = await f.get('/exercise/Pull_Up', ALICE);
    const free = await f.get('/exercise/Pull_Up', GUEST);
    const etag = free.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(etag).not.toBe(premium.headers.get('etag'));
    const again = await f.get('/exercise/Pull_Up', GUEST, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
  });

  test('If-None-Match is judged as the catalogue server judges it: a weak tag, or `*` in a list, is a match; another tag is not', async () => {
    const upstream = await startServer();
    const g = await startProxy({ upstream });
    try {
      const etag = (await g.get('/exercise/Pull_Up')).headers.get('etag')!;
      const asked = [`W/${etag}`, '"other", *', '"other"'];
      const ask = (url: string, key: string, tag: string) => fetch(`${url}/exercise/Pull_Up`, { headers: { 'x-api-key': key, 'if-none-match': tag } });
      const fromProxy = await Promise.all(asked.map(async (tag) => (await ask(g.proxy.url, ALICE, tag)).status));
      const fromServer = await Promise.all(asked.map(async (tag) => (await ask(upstream.url, UPSTREAM_KEY, tag)).status));
      expect(fromProxy).toEqual([304, 304, 200]);
      expect(fromServer).toEqual(fromProxy);
    } finally {
      await g.stop();
      await upstream.close();
    }
  });

  test('If-None-Match: * is a 304 for an answer the upstream sent without an ETag too', async () => {
    const upstream = await startServer({ etags: false });
    const g = await startProxy({ upstream });
    try {
      const first = await g.get('/exercise/Pull_Up');
      expect(first.headers.get('etag')).toBeNull();
      const again = await g.get('/exercise/Pull_Up', ALICE, { 'if-none-match': '*' });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBeNull();
      expect(again.headers.get('x-ratelimit-used')).toBe('1');
    } finally {
      await g.stop();
      await upstream.close();
    }
  });

  test('an unknown key, or none, is 401 and reaches no upstream', async () => {
    const before = f.upstreamCount();
    expect((await f.get('/exercise/Push_Up', 'not-a-key')).status).toBe(401);
    expect((await fetch(`${f.proxy.url}/exercise/Push_Up`)).status).toBe(401);
    // The upstream's own key is not a client key of the proxy.
    expect((await f.get('/exercise/Push_Up', UPSTREAM_KEY)).status).toBe(401);
    expect(f.upstreamCount()).toBe(before);
  });

  test('GET /-/status needs a key and reports the month, upstream requests, hits, misses and bytes', async () => {
    expect((await fetch(`${f.proxy.url}/-/status`)).status).toBe(401);
    const res = await f.get('/-/status', GUEST);
    expect(res.status).toBe(200);
    const status = (await res.json()) as Record<string, number | string | null>;
    expect(status.month).toMatch(/^\d{4}-\d{2}$/);
    expect(status.upstreamRequests).toBe(f.upstreamCount());
    expect(status.budget).toBeNull();
    expect(status.hits).toBeGreaterThan(0);
    expect(status.misses).toBeGreaterThan(0);
    expect(status.bytesServed).toBeGreaterThan(1000);
  });

  test('one access log line per request: time, key hash, method, path, status, outcome, ms, bytes', async () => {
    const before = f.log.length;
    await f.get('/exercise/query?primaryMuscle=BICEPS', ALICE);
    await f.get('/exercise/query?primaryMuscle=BICEPS', GUEST);
    await f.get('/exercise/Push_Up', 'not-a-key');
    const lines = f.log.slice(before);
    expect(lines).toHaveLength(3);
    const time = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';
    expect(lines[0]).toMatch(new RegExp(`^${time} [0-9a-f]{8} GET /exercise/query\\?primaryMuscle=BICEPS 200 miss \\d+\\.\\dms [1-9]\\d*B$`));
    expect(lines[1]).toMatch(new RegExp(`^${time} [0-9a-f]{8} GET /exercise/query\\?primaryMuscle=BICEPS 200 hit \\d+\\.\\dms [1-9]\\d*B$`));
    expect(lines[0]!.split(' ')[1]).not.toBe(lines[1]!.split(' ')[1]);
    expect(Math.abs(Date.parse(lines[0]!.split(' ')[0]!) - Date.now())).toBeLessThan(60_000);
    expect(lines[2]).toMatch(new RegExp(`^${time} - GET /exercise/Push_Up 401 - `));
  });

  test("answers carry the month's upstream count as X-RateLimit-Used, which the CLI notes for `quota`", async () => {
    const res = await f.get('/exercise/Push_Up', ALICE);
    expect(Number(res.headers.get('x-ratelimit-used'))).toBe(f.upstreamCount());
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  test('the upstream key appears in no answer, log line or file', async () => {
    const bodies: string[] = [];
    for (const path of ['/exercise/Push_Up', '/exercise/nope', '/exercise/query?level=NOPE', '/images/Push_Up/premium/start.png', '/-/status']) {
      for (const key of [ALICE, GUEST]) {
        const res = await f.get(path, key);
        bodies.push([...res.headers].join('\n'), Buffer.from(await res.arrayBuffer()).toString('latin1'));
      }
    }
    expect(bodies.join('\n')).not.toContain(UPSTREAM_KEY);
    expect([...f.log, ...f.warnings].join('\n')).not.toContain(UPSTREAM_KEY);
    const files = filesUnder(f.root);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(readFileSync(file).toString('latin1')).not.toContain(UPSTREAM_KEY);
  });
});

describe('paths', () => {
  test('dot segments, unknown paths and writes are answered by the proxy itself, never sent upstream', async () => {
    const before = f.upstreamCount();
    for (const path of ['/exercise/..', '/exercise/%2e%2e', '/exercise/.', '/exercises', '//exercise/Push_Up', '/images/%2e%2e/premium/x.png']) {
      expect((await f.get(path)).status, path).toBe(404);
    }
    const post = await fetch(`${f.proxy.url}/exercise/Push_Up`, { method: 'POST', headers: { 'x-api-key': ALICE } });
    expect(post.status).toBe(405);
    expect(f.upstreamCount()).toBe(before);
  });
});
