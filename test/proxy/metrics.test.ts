/**
 * GET /-/metrics: valid Prometheus text (checked by test/helpers/prometheus-text.ts, promtool
 * not being installed), its counters moving with the answers, the upstream requests and the
 * budget, reachable from loopback without a key or with a client key from anywhere.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { keyHash } from '../../src/cache/cached-get.js';
import { mayReadMetrics } from '../../src/proxy/metrics.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { ALICE, type ProxyFixture, startProxy } from './proxy-helpers.js';

let f: ProxyFixture | undefined;
afterEach(async () => {
  await f?.stop();
  f = undefined;
});

async function scrape(fixture: ProxyFixture, headers: Record<string, string> = {}) {
  const res = await fetch(`${fixture.proxy.url}/-/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

describe('the format checker', () => {
  test('takes well-formed text and gives its samples', () => {
    const samples = parsePrometheusText(
      '# HELP a_total A.\n# TYPE a_total counter\na_total{x="q\\"uote\\\\"} 3\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 4.5\nh_count 2\n',
    );
    expect(sampleValue(samples, 'a_total', { x: 'q"uote\\' })).toBe(3);
    expect(sampleValue(samples, 'h_count')).toBe(2);
  });

  test.each([
    ['no final newline', '# TYPE a counter\na 1'],
    ['a sample before its TYPE', 'a 1\n# TYPE a counter\n'],
    ['a bad metric name', '# TYPE 1a counter\n1a 1\n'],
    ['an unknown type', '# TYPE a countr\na 1\n'],
    ['an unescaped quote', '# TYPE a counter\na{x="b"c"} 1\n'],
    ['a bad value', '# TYPE a counter\na one\n'],
    ['a suffix the type has not', '# TYPE a counter\na_bucket 1\n'],
    ['buckets going down', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'],
    ['the +Inf bucket unlike _count', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n'],
  ])('refuses %s', (_why, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});

describe('/-/metrics', () => {
  test('is valid text whose counters move: answers by outcome and status, per client, upstream requests, fill durations, the budget', async () => {
    f = await startProxy({ budget: 50 });
    const before = await scrape(f);
    expect(sampleValue(before, 'exercises_proxy_requests_total', { answered: 'hit', status: '200' })).toBe(0);

    expect((await f.get('/exercise/Push_Up')).status).toBe(200);
    expect((await f.get('/exercise/Push_Up')).status).toBe(200);
    expect((await f.get('/exercise/Push_Up', 'not-a-key')).status).toBe(401);
    const after = await scrape(f);
    expect(sampleValue(after, 'exercises_proxy_requests_total', { answered: 'miss', status: '200' })).toBe(1);
    expect(sampleValue(after, 'exercises_proxy_requests_total', { answered: 'hit', status: '200' })).toBe(1);
    expect(sampleValue(after, 'exercises_proxy_requests_total', { answered: 'none', status: '401' })).toBe(1);
    expect(sampleValue(after, 'exercises_proxy_client_requests_total', { client: keyHash(ALICE).slice(0, 8) })).toBe(2);
    expect(sampleValue(after, 'exercises_proxy_upstream_requests_total', { kind: 'json', status: '200' })).toBe(1);
    expect(sampleValue(after, 'exercises_proxy_fill_duration_seconds_count', { kind: 'json' })).toBe(1);
    expect(sampleValue(after, 'exercises_proxy_upstream_month_requests')).toBe(1);
    expect(sampleValue(after, 'exercises_proxy_upstream_budget_remaining')).toBe(49);
    expect(sampleValue(after, 'exercises_proxy_served_bytes_total')).toBeGreaterThan(sampleValue(before, 'exercises_proxy_served_bytes_total'));
  });

  test('coalesced waits are counted, and the budget gauge is absent without a budget', async () => {
    f = await startProxy();
    const proxy = f;
    await Promise.all(Array.from({ length: 5 }, () => proxy.get('/exercise/query?category=STRENGTH&limit=3').then((r) => r.arrayBuffer())));
    const samples = await scrape(f);
    const outcomes = f.log.map((l) => l.split(' ')[5]);
    expect(sampleValue(samples, 'exercises_proxy_coalesced_waits_total')).toBe(outcomes.filter((o) => o === 'coalesced').length);
    expect(samples.some((s) => s.name === 'exercises_proxy_upstream_budget_remaining')).toBe(false);
  });

  test('a client key reads it too', async () => {
    f = await startProxy();
    const samples = await scrape(f, { 'x-api-key': ALICE });
    expect(samples.some((s) => s.name === 'exercises_proxy_served_bytes_total')).toBe(true);
  });

  test('without a key only from loopback', () => {
    expect(mayReadMetrics('127.0.0.1', false)).toBe(true);
    expect(mayReadMetrics('::1', false)).toBe(true);
    expect(mayReadMetrics('::ffff:127.0.0.1', false)).toBe(true);
    expect(mayReadMetrics('192.168.1.20', false)).toBe(false);
    expect(mayReadMetrics(undefined, false)).toBe(false);
    expect(mayReadMetrics('192.168.1.20', true)).toBe(true);
  });
});
