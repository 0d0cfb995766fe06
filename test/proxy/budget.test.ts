/**
 * The budget enforced centrally: every upstream request counted in the ledger; a miss that
 * would pass the budget is 429 with Retry-After to the start of next month, which the CLI turns
 * into exit 5 saying it is the proxy's budget; cached answers keep flowing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Ledger } from '../../src/cache/ledger.js';
import { keyHash } from '../../src/cache/cached-get.js';
import { runInProcess } from '../helpers/test-context.js';
import { ALICE, type ProxyFixture, UPSTREAM_KEY, startProxy } from './proxy-helpers.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedHome } from '../helpers/run-cli.js';
import { closedPort } from '../helpers/closed-port.js';
import type { CatalogueServer } from '../helpers/server.js';

let f: ProxyFixture;
/** The CLI's home (its cache and ledger) for the runs below, removed at the end. */
let home: string;
beforeAll(async () => {
  f = await startProxy({ budget: 2 });
  home = isolatedHome();
});
afterAll(async () => {
  await f.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('the proxy budget', () => {
  test('misses within the budget go upstream and are counted in the ledger', async () => {
    expect((await f.get('/exercise/Push_Up')).status).toBe(200);
    const second = await f.get('/exercise/Pull_Up');
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-limit')).toBe('2');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    const usage = await new Ledger(join(f.root, 'ledger.json')).usage(f.upstream.url, keyHash(UPSTREAM_KEY));
    expect(usage.requests).toBe(2);
  });

  test('the miss past it is 429 with Retry-After to the next UTC month and a body naming the proxy budget; nothing is sent', async () => {
    const before = f.upstreamCount();
    const res = await f.get('/exercise/Plank');
    expect(res.status).toBe(429);
    const now = new Date();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Math.abs(Date.now() + retryAfter * 1000 - nextMonth)).toBeLessThan(5_000);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('proxy_budget_exhausted');
    expect(body.error.message).toMatch(/proxy's monthly budget of 2 upstream requests is spent/);
    expect(f.upstreamCount()).toBe(before);
    const media = await f.get('/images/Plank/premium/start.png');
    expect(media.status).toBe(429);
  });

  test('cached answers keep flowing', async () => {
    const res = await f.get('/exercise/Push_Up');
    expect(res.status).toBe(200);
    expect(f.log.at(-1)).toMatch(/ 200 hit /);
  });

  test("the CLI pointed at the proxy exits 5 with a sentence saying it is the proxy's budget", async () => {
    const result = await runInProcess(['--base-url', f.proxy.url, 'show', 'Plank'], { env: { EXERCISES_API_KEY: ALICE, HOME: home } });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^Error: The proxy's monthly budget of 2 upstream requests is spent for \d{4}-\d{2} .*\(429 for GET \/exercise\/Plank\)/);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    // The sentence names the day the budget starts again: no count of seconds beside it.
    expect(result.stderr).not.toMatch(/asks to wait/);
  });

  test("`exercises quota` pointed at the proxy shows the proxy's figures (its rate-limit headers)", async () => {
    const env = { EXERCISES_API_KEY: ALICE, EXERCISES_BASE_URL: f.proxy.url };
    const shown = await runInProcess(['show', 'Push_Up', '--json'], { env: { ...env, HOME: home } });
    expect(shown.code).toBe(0);
    const quota = await runInProcess(['quota', '--json'], { env: { ...env, HOME: home } });
    expect(quota.code).toBe(0);
    const figures = JSON.parse(quota.stdout) as { rateLimit: { limit: number; remaining: number; headers: Record<string, string> } };
    expect(figures.rateLimit.limit).toBe(2);
    expect(figures.rateLimit.remaining).toBe(0);
    expect(figures.rateLimit.headers['x-ratelimit-used']).toBe('2');
  });
});

describe('an upstream that cannot be reached', () => {
  test('spends none of the proxy budget: each refused upstream request is given back', async () => {
    const closed = { url: `http://127.0.0.1:${await closedPort()}`, requests: [] } as unknown as CatalogueServer;
    const down = await startProxy({ budget: 1, upstream: closed });
    try {
      for (const id of ['Push_Up', 'Pull_Up', 'Plank']) expect((await down.get(`/exercise/${id}`)).status).toBeGreaterThanOrEqual(500);
      const usage = await new Ledger(join(down.root, 'ledger.json')).usage(closed.url, keyHash(UPSTREAM_KEY), { budget: 1 });
      expect(usage).toMatchObject({ requests: 0, remaining: 1 });
    } finally {
      await down.stop();
    }
  });
});
