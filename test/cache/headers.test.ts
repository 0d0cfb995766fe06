/** The pure helpers the transport wiring uses: Cache-Control, rate-limit headers, months. */
import { describe, expect, it } from 'vitest';
import { parseCacheControl } from '../../src/cache/headers.js';
import { contentLanguage, entryMetaFor, parseEntryMeta } from '../../src/cache/freshness.js';
import { currentMonth, monthNumber } from '../../src/cache/month.js';
import { rateLimitHeaders } from '../../src/cache/rate-limit.js';

describe('parseCacheControl', () => {
  it('reads no-store, no-cache and max-age in any case and order', () => {
    expect(parseCacheControl(undefined)).toEqual({ noStore: false, noCache: false });
    expect(parseCacheControl('public, max-age=600')).toEqual({ noStore: false, noCache: false, maxAge: 600 });
    expect(parseCacheControl('NO-STORE')).toMatchObject({ noStore: true });
    expect(parseCacheControl('private, no-cache="set-cookie, x-a", max-age=60')).toEqual({ noStore: false, noCache: true, maxAge: 60 });
    expect(parseCacheControl('max-age="30"')).toMatchObject({ maxAge: 30 });
  });

  it('takes the first max-age, and a malformed one as 0 (stale at once)', () => {
    expect(parseCacheControl('max-age=5, max-age=500')).toMatchObject({ maxAge: 5 });
    expect(parseCacheControl('max-age=soon')).toMatchObject({ maxAge: 0 });
    expect(parseCacheControl('max-age=-3')).toMatchObject({ maxAge: 0 });
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

  it('is stored with the entry and read back, checked again', () => {
    const meta = entryMetaFor({ 'content-language': 'en-GB' }, 1000)!;
    expect(meta.language).toBe('en-GB');
    expect(parseEntryMeta(JSON.parse(JSON.stringify(meta)))?.language).toBe('en-GB');
    expect(parseEntryMeta({ storedAt: 1, language: 'en\u001b[2J' })?.language).toBeUndefined();
    // A 304 without the header keeps what the entry had.
    expect(entryMetaFor({}, 2000, meta)?.language).toBe('en-GB');
  });
});
