/** The pure helpers the transport wiring uses: what headers say of freshness, rate-limit headers, months. */
import { describe, expect, it } from 'vitest';
import { contentLanguage, freshnessFor, revalidated, saysHowFresh, rateLimitHeaders } from '../../src/cache/headers.js';
import { isFresh, parseFreshness } from '../../src/cache/store-files.js';
import { currentMonth, monthNumber } from '../../src/cache/ledger.js';

describe('saysHowFresh', () => {
  it('is true when Cache-Control names a lifetime or no-cache/no-store, in any case, or Expires is there', () => {
    expect(saysHowFresh({})).toBe(false);
    expect(saysHowFresh({ 'cache-control': 'public' })).toBe(false);
    expect(saysHowFresh({ 'cache-control': 'public, MAX-AGE=600' })).toBe(true);
    expect(saysHowFresh({ 'cache-control': 'no-cache' })).toBe(true);
    expect(saysHowFresh({ 'cache-control': ['private', 'no-store'] })).toBe(true);
    expect(saysHowFresh({ expires: 'Thu, 01 Jan 2099 00:00:00 GMT' })).toBe(true);
  });
});

describe('freshness through http-cache-semantics', () => {
  it('takes max-age less the Age the answer arrived with; the TTL only where the headers say nothing', async () => {
    const aged = (await freshnessFor({ 'cache-control': 'max-age=60', age: '50' }, 1_000_000))!.freshness;
    expect(isFresh(aged, 1_000_000 + 9_000, 3_600_000)).toBe(true);
    expect(isFresh(aged, 1_000_000 + 11_000, 3_600_000)).toBe(false);
    const silent = (await freshnessFor({ etag: '"a"' }, 1_000_000))!.freshness;
    expect(silent.freshUntil).toBeNull();
    expect(isFresh(silent, 1_000_000 + 59_000, 60_000)).toBe(true);
    expect(isFresh(silent, 1_000_000 + 60_000, 60_000)).toBe(false);
  });

  it('stores nothing for no-store, and a no-cache answer is never fresh', async () => {
    expect(await freshnessFor({ 'cache-control': 'no-store' }, 1000)).toBeUndefined();
    const noCache = (await freshnessFor({ 'cache-control': 'no-cache' }, 1000))!.freshness;
    expect(isFresh(noCache, 1000, 3_600_000)).toBe(false);
  });

  it('refuses stored freshness that is not what it writes', async () => {
    const stored = (await freshnessFor({}, 1000))!.freshness;
    expect(parseFreshness(JSON.parse(JSON.stringify(stored)) as Record<string, unknown>)).toEqual(stored);
    expect(parseFreshness({ ...stored, storedAt: 'then' })).toBeUndefined();
    expect(parseFreshness({ ...stored, policy: { v: 9 } })).toBeUndefined();
    expect(parseFreshness({ ...stored, freshUntil: 'later' })).toBeUndefined();
  });
});

describe('rateLimitHeaders', () => {
  it('is undefined when a response has none', () => {
    expect(rateLimitHeaders({ 'content-type': 'application/json' })).toBeUndefined();
  });

  it('reads the IETF names first, then X-RateLimit-*', () => {
    const info = rateLimitHeaders({
      'ratelimit-limit': '100',
      'ratelimit-remaining': '42',
      'x-ratelimit-limit': '999',
      'x-ratelimit-reset': '3600',
      'content-type': 'application/json',
    });
    expect(info).toEqual({
      limit: 100,
      remaining: 42,
      reset: 3600,
      headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '42', 'x-ratelimit-limit': '999', 'x-ratelimit-reset': '3600' },
    });
  });

  it('reads the structured RateLimit field and keeps values printable', () => {
    expect(rateLimitHeaders({ ratelimit: '"default";r=7;t=30', 'ratelimit-policy': '"default";q=100;w=2592000' })).toMatchObject({ remaining: 7, reset: 30 });
    expect(rateLimitHeaders({ ratelimit: 'limit=10, remaining=3, reset=5' })).toMatchObject({ limit: 10, remaining: 3, reset: 5 });
    const hostile = rateLimitHeaders({ 'x-ratelimit-remaining': '5\u001b[31m red' });
    expect(hostile?.headers['x-ratelimit-remaining']).toBe('5[31m red');
    expect(hostile?.remaining).toBe(5);
  });
});

describe('currentMonth', () => {
  it('is the UTC calendar month', () => {
    expect(currentMonth(Date.UTC(2025, 0, 31, 23, 59, 59))).toBe('2025-01');
    expect(currentMonth(Date.UTC(2025, 1, 1, 0, 0, 0))).toBe('2025-02');
    expect(currentMonth(new Date(Date.UTC(2024, 11, 31, 23, 30)))).toBe('2024-12');
    expect(monthNumber('2025-01') - monthNumber('2024-12')).toBe(1);
    expect(monthNumber('2025-13')).toBeNaN();
  });
});

describe('contentLanguage', () => {
  it('keeps a language tag or a list of them', () => {
    expect(contentLanguage({ 'content-language': 'en-GB' })).toBe('en-GB');
    expect(contentLanguage({ 'content-language': ['de-DE', 'en'] })).toBe('de-DE, en');
    expect(contentLanguage({})).toBeUndefined();
  });

  it('drops anything else: it reaches the terminal', () => {
    for (const value of ['en\u001b[2J', 'en GB', '', 'x'.repeat(200), 'en-GB; q=1', '\u202een']) {
      expect(contentLanguage({ 'content-language': value }), JSON.stringify(value)).toBeUndefined();
    }
  });

  it('is stored with the entry and read back, checked again', async () => {
    const meta = (await freshnessFor({ 'content-language': 'en-GB' }, 1000))!.freshness;
    expect(meta.language).toBe('en-GB');
    expect(parseFreshness(JSON.parse(JSON.stringify(meta)) as Record<string, unknown>)?.language).toBe('en-GB');
    expect(parseFreshness({ ...meta, language: 'en\u001b[2J' })?.language).toBeUndefined();
    // A 304 without the header keeps what the entry had.
    expect((await revalidated(meta, {}, 2000))?.freshness.language).toBe('en-GB');
  });
});
