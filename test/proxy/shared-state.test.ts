/**
 * Replicas of the team proxy sharing one real Redis (--shared-state): two `serve --upstream`
 * processes with caches of their own make one upstream request for 100 concurrent misses, hold
 * one budget between them, and share answers; with Redis gone misses answer 503 (never an
 * upstream request uncounted) while held answers are still served, and they recover by themselves.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { type RedisServer, type RedisTls, redisMissing, startRedis } from '../helpers/redis.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';
import { readCatalogue } from '../../src/catalogue/load.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { ALICE, type ProxyFixture, startProxy } from './proxy-helpers.js';

const missing = redisMissing();
const IDS = [...readCatalogue(sampleCatalogueDir()).indexById.keys()];
const WAIT = { timeout: 30_000, interval: 20 };

let upstream: CatalogueServer;
const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(async () => {
  upstream = await startServer();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await upstream.close();
});

async function redis(args: readonly string[] = [], tls?: RedisTls): Promise<RedisServer> {
  const server = await startRedis(args, tls);
  cleanups.push(() => server.close());
  return server;
}

/** Upstream requests for `path` (all of them without one) since `from`. */
const upstreamRequests = (from: number, path?: string): number => upstream.requests.slice(from).filter((r) => path === undefined || r.path === path).length;

interface Replica {
  url: string;
  stderr(): string;
  get(path: string, key?: string): Promise<Response>;
}

/** A `serve --upstream … --shared-state <url>` process with a home (so a cache) of its own, stopped after the test. */
async function replica(sharedState: string, args: string[] = [], env: Record<string, string> = {}): Promise<Replica> {
  const home = isolatedHome();
  let child: ChildProcess | undefined;
  let [out, err] = ['', ''];
  const done = runCli(['serve', '--upstream', upstream.url, '--shared-state', sharedState, '--key', `${ALICE}:premium`, '--port', '0', ...args], {
    env: { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY, ...env },
    timeoutMs: 120_000,
    onSpawn(c) {
      child = c;
      c.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
      c.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    },
  });
  cleanups.push(async () => {
    child?.kill('SIGTERM');
    expect((await done).code).toBe(0);
    rmSync(home, { recursive: true, force: true });
  });
  await vi.waitUntil(() => /Listening on \S+\n/.test(out) || child?.exitCode !== null, WAIT);
  const url = /Listening on (\S+)\n/.exec(out)?.[1];
  if (!url) throw new Error(`the proxy did not start: ${err}`);
  return { url, stderr: () => err, get: (path, key = ALICE) => fetch(`${url}${path}`, { headers: { 'x-api-key': key } }) };
}

/** The status and body of GET `path` through `r`, the body read whole. */
async function got(r: Replica, path: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const res = await r.get(path);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
}

describe('two proxy processes, one Redis', () => {
  test.skipIf(missing)(
    '100 concurrent misses split between them make one upstream request; a record fetched through one is a hit through the other',
    async () => {
      const r = await redis();
      const [a, b] = await Promise.all([replica(r.url), replica(r.url)]);
      const from = upstream.requests.length;
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => got(i % 2 ? b : a, `/exercise/${IDS[0]}`)));
      expect(answers.map((x) => x.status)).toEqual(Array(100).fill(200));
      expect(new Set(answers.map((x) => x.body)).size).toBe(1);
      expect(upstreamRequests(from, `/exercise/${IDS[0]}`)).toBe(1);

      expect((await got(a, `/exercise/${IDS[1]}`)).status).toBe(200);
      expect((await got(b, `/exercise/${IDS[1]}`)).status).toBe(200);
      expect(upstreamRequests(from)).toBe(2);
      await vi.waitUntil(() => b.stderr().includes(`GET /exercise/${IDS[1]} 200`), WAIT);
      expect(b.stderr()).toMatch(new RegExp(`GET /exercise/${IDS[1]} 200 hit `));
    },
  );

  test.skipIf(missing)('50 distinct records through both with --budget 10: exactly 10 upstream requests, the rest 429', async () => {
    const r = await redis();
    const [a, b] = await Promise.all([replica(r.url, ['--budget', '10']), replica(r.url, ['--budget', '10'])]);
    const from = upstream.requests.length;
    const answers = await Promise.all(IDS.slice(0, 50).map((id, i) => got(i % 2 ? b : a, `/exercise/${id}`)));
    expect(upstreamRequests(from)).toBe(10);
    expect(answers.filter((x) => x.status === 200)).toHaveLength(10);
    const refused = answers.filter((x) => x.status === 429);
    expect(refused).toHaveLength(40);
    expect(refused[0]!.body).toContain('proxy_budget_exhausted');
    const status = (await (await a.get('/-/status')).json()) as { upstreamRequests: number; sharedState: { up: boolean; url: string } };
    expect(status).toMatchObject({ upstreamRequests: 10, sharedState: { up: true, url: r.url } });
  });

  test.skipIf(missing)(
    'Redis stopped mid-load: no request past the budget, misses 503 with Retry-After, held answers served; back without a restart',
    async () => {
      const r = await redis();
      const [a, b] = await Promise.all([replica(r.url, ['--budget', '12']), replica(r.url, ['--budget', '12'])]);
      const from = upstream.requests.length;
      // Held by a, b: hits later.
      expect((await got(a, `/exercise/${IDS[0]}`)).status).toBe(200);
      expect((await got(b, `/exercise/${IDS[1]}`)).status).toBe(200);
      const load = Promise.all(IDS.slice(2, 22).map((id, i) => got(i % 2 ? b : a, `/exercise/${id}`)));
      await vi.waitUntil(() => upstreamRequests(from) >= 5, WAIT);
      await r.stop();
      const during = await load;
      expect(during.every((x) => [200, 429, 503].includes(x.status))).toBe(true);
      const sentBefore = upstreamRequests(from);
      expect(sentBefore).toBeLessThanOrEqual(12);

      for (const replica of [a, b]) {
        await vi.waitUntil(async () => (await fetch(`${replica.url}/-/ping`)).status === 503, WAIT);
        const miss = await got(replica, `/exercise/${IDS[40]}`);
        expect(miss.status).toBe(503);
        expect(miss.retryAfter).toMatch(/^\d+$/);
        expect(JSON.parse(miss.body)).toMatchObject({ error: { code: 'shared_state_unavailable' } });
        expect(miss.body).toMatch(/shared state \(Redis\) is unavailable/);
      }
      expect((await got(a, `/exercise/${IDS[0]}`)).status).toBe(200);
      expect((await got(b, `/exercise/${IDS[1]}`)).status).toBe(200);
      expect(upstreamRequests(from)).toBe(sentBefore);
      await vi.waitUntil(() => /proxy: the shared state redis:\/\/127\.0\.0\.1:\d+ cannot be used/.test(a.stderr()), WAIT);

      // Back, empty (it saved nothing): the replicas put their counts back, and the budget still holds.
      await r.start();
      for (const replica of [a, b]) await vi.waitUntil(async () => (await fetch(`${replica.url}/-/ping`)).status === 200, WAIT);
      const after = await Promise.all(IDS.slice(30, 50).map((id, i) => got(i % 2 ? b : a, `/exercise/${id}`)));
      // A count Redis took as it went down, for a request then refused with 503, is not given back
      // (Redis was gone): the budget may come out short by those, never over.
      const refusedInFlight = during.filter((x) => x.status === 503).length;
      const served = after.filter((x) => x.status === 200).length;
      expect(served).toBeLessThanOrEqual(12 - sentBefore);
      expect(served).toBeGreaterThanOrEqual(12 - sentBefore - refusedInFlight);
      expect(after.filter((x) => x.status === 429).length).toBe(20 - served);
      expect(upstreamRequests(from)).toBe(sentBefore + served);
      expect(a.stderr()).toMatch(/proxy: the shared state redis:\/\/127\.0\.0\.1:\d+ is back\./);
      for (const replica of [a, b]) expect(replica.stderr().match(/cannot be used/g)).toHaveLength(1); // once a minute at most
      expect(a.stderr() + b.stderr()).not.toMatch(/\/-\/ping/);
    },
    90_000,
  );
});

describe('one proxy and its shared state', () => {
  let f: ProxyFixture | undefined;
  afterEach(async () => {
    await f?.stop();
    f = undefined;
  });

  test.skipIf(missing)('/-/ping needs no key and writes no log line; 503 while Redis refuses; the password shown nowhere', async () => {
    const r = await redis(['--requirepass', 'redis-pass-5f3a9c']);
    f = await startProxy({ sharedState: `redis://:wrong-pass-77d1e2@127.0.0.1:${r.port}/0` });
    const ping = await fetch(`${f.proxy.url}/-/ping`);
    expect(ping.status).toBe(503);
    expect(ping.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await f.get(`/exercise/${IDS[0]}`)).status).toBe(503);
    expect(f.upstreamCount()).toBe(0);
    const statusRes = await f.get('/-/status');
    expect(statusRes.status).toBe(503); // it has seen no count yet
    const status = await statusRes.text();
    const metrics = await (await f.get('/-/metrics')).text();
    expect(metrics).toMatch(/^exercises_proxy_shared_state_up 0$/m);
    expect(f.warnings.join('\n')).toMatch(/shared state redis:\/\/127\.0\.0\.1:\d+\/0 cannot be used \(WRONGPASS/);
    expect(f.warnings.filter((w) => w.includes('cannot be used'))).toHaveLength(1);
    for (const text of [status, metrics, ...f.warnings, ...f.log]) expect(text).not.toContain('wrong-pass-77d1e2');
    expect(f.log.filter((line) => line.includes('/-/ping'))).toEqual([]);
    await f.stop();

    f = await startProxy({ sharedState: `redis://:redis-pass-5f3a9c@127.0.0.1:${r.port}/0` });
    await vi.waitUntil(async () => (await fetch(`${f!.proxy.url}/-/ping`)).status === 200, WAIT);
    expect(await (await fetch(`${f.proxy.url}/-/ping`, { method: 'HEAD' })).text()).toBe('');
    expect((await f.get(`/exercise/${IDS[0]}`)).status).toBe(200);
    expect(await (await f.get('/-/metrics')).text()).toMatch(/^exercises_proxy_shared_state_up 1$/m);
  });

  test.skipIf(missing)(
    'media: replicas sharing a media volume fill a file once; with disks of their own, each fetches it once, one after the other',
    async () => {
      const r = await redis();
      const media = tempDir('exercises-shared-media-');
      cleanups.push(() => rmSync(media, { recursive: true, force: true }));
      const path = '/images/Box_Jump/premium/start.png';
      const replicas = [await startProxy({ upstream, sharedState: r.url, dir: media }), await startProxy({ upstream, sharedState: r.url, dir: media })];
      cleanups.push(async () => {
        for (const p of replicas) await p.stop();
      });
      const from = upstream.requests.length;
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => replicas[i % 2]!.get(path)));
      const bodies = await Promise.all(answers.map(async (res) => Buffer.from(await res.arrayBuffer())));
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
      expect(new Set(bodies.map((body) => body.toString('base64'))).size).toBe(1);
      expect(upstreamRequests(from, path)).toBe(1);

      const own = [await startProxy({ upstream, sharedState: r.url }), await startProxy({ upstream, sharedState: r.url })];
      cleanups.push(async () => {
        for (const p of own) await p.stop();
      });
      const other = '/images/Box_Jump/premium/end.png';
      const split = await Promise.all(Array.from({ length: 10 }, (_, i) => own[i % 2]!.get(other)));
      expect(split.map((res) => res.status)).toEqual(Array(10).fill(200));
      await Promise.all(split.map((res) => res.arrayBuffer()));
      expect(upstreamRequests(from, other)).toBe(2);
    },
  );
});

/** A self-signed certificate for 127.0.0.1 and its key, under `dir`. */
function certificate(dir: string): RedisTls {
  const [cert, key] = [join(dir, 'redis.crt'), join(dir, 'redis.key')];
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert];
  const made = spawnSync('openssl', [...args, '-days', '2', '-subj', '/CN=redis', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
  return { cert, key };
}

test.skipIf(missing || spawnSync('openssl', ['version']).status !== 0)(
  'rediss:// with a password: the replica shares over TLS, and says the URL without the password',
  async () => {
    const dir = tempDir('exercises-redis-tls-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const tls = certificate(dir);
    const r = await redis(['--requirepass', 'tls-pass-0c9d8e'], tls);
    const url = `rediss://:tls-pass-0c9d8e@127.0.0.1:${r.port}`;
    const a = await replica(url, [], { NODE_EXTRA_CA_CERTS: tls.cert });
    await vi.waitUntil(async () => (await fetch(`${a.url}/-/ping`)).status === 200, WAIT);
    const from = upstream.requests.length;
    expect((await got(a, `/exercise/${IDS[3]}`)).status).toBe(200);
    const b = await replica(url, [], { NODE_EXTRA_CA_CERTS: tls.cert });
    await vi.waitUntil(async () => (await fetch(`${b.url}/-/ping`)).status === 200, WAIT);
    expect((await got(b, `/exercise/${IDS[3]}`)).status).toBe(200);
    expect(upstreamRequests(from)).toBe(1);
    expect(a.stderr()).toContain(`shared with other replicas through rediss://127.0.0.1:${r.port};`);
    expect(await (await a.get('/-/status')).text()).not.toContain('tls-pass-0c9d8e');
    expect(a.stderr() + b.stderr()).not.toContain('tls-pass-0c9d8e');
  },
  60_000,
);

describe('the shared-state setting', () => {
  test('a URL that is not redis:// or rediss:// is refused, naming where it came from; the password never echoed', async () => {
    const home = isolatedHome();
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const env = { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY };
    const flag = await runInProcess(['serve', '--upstream', upstream.url, '--key', 'k:premium', '--shared-state', 'http://:pw-9f8e7d@host/0'], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--shared-state: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(flag.stderr).not.toContain('pw-9f8e7d');
    const variable = await runInProcess(['serve', '--upstream', upstream.url, '--key', 'k:premium'], {
      env: { ...env, EXERCISES_SHARED_STATE: 'redis://' },
    });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toMatch(/EXERCISES_SHARED_STATE: expected a redis:\/\/ or rediss:\/\/ URL/);
  });

  test('a proxy that cannot listen exits 2, its Redis connection closed rather than retried for ever', async () => {
    const home = isolatedHome();
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    cleanups.push(() => {
      rmSync(home, { recursive: true, force: true });
      return new Promise<void>((closed) => taken.close(() => closed()));
    });
    const port = String((taken.address() as AddressInfo).port);
    // No Redis at that address: the link keeps trying to reconnect until it is closed.
    const result = await runCli(['serve', '--upstream', upstream.url, '--key', `${ALICE}:premium`, '--port', port, '--shared-state', 'redis://127.0.0.1:1/0'], {
      env: { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY },
      timeoutMs: 30_000,
    });
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
  }, 40_000);

  test('a password that is not valid percent-encoding is a usage error, not an internal one, and never echoed', async () => {
    const home = isolatedHome();
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const env = { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY };
    const result = await runInProcess(['serve', '--upstream', upstream.url, '--key', 'k:premium', '--shared-state', 'redis://:pw%zz-4a5b6c@127.0.0.1:1/0'], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--shared-state: the user name or password .*percent-encoding/);
    expect(result.stderr).not.toContain('URI malformed');
    expect(result.stderr).not.toContain('4a5b6c');
  });
});
