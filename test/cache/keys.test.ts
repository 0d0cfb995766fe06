/** Cache keys: one canonical form per request, kept apart by origin, key and language, never holding the key. */
import envPaths from 'env-paths';
import { describe, expect, it } from 'vitest';
import { cacheKey, cacheScope, canonicalQuery, keyHash } from '../../src/cache/cached-get.js';
import { recordIdKey, recordNameKey } from '../../src/cache/response-cache.js';
import { cacheRoot, httpCacheDir, ledgerPath } from '../../src/cache/store-files.js';

const base = { origin: 'https://api.example.test', path: '/exercise/query', apiKey: 'secret-key-123', lang: 'en-GB' };

describe('cacheKey', () => {
  it('is the same whatever the order of the query parameters and of repeated values', () => {
    const a = cacheKey({ ...base, query: { muscle: 'CHEST', category: ['STRENGTH', 'CARDIO'], limit: '25' } });
    const b = cacheKey({ ...base, query: { limit: '25', category: ['CARDIO', 'STRENGTH'], muscle: 'CHEST' } });
    const c = cacheKey({ ...base, query: new URLSearchParams('category=CARDIO&limit=25&muscle=CHEST&category=STRENGTH') });
    expect(a).toBe(b);
    expect(a).toBe(c);
    expect(canonicalQuery({ b: '2', a: ['z', 'y'] })).toBe('a=y&a=z&b=2');
  });

  it('differs for a different query value, path, origin, language or key', () => {
    const key = cacheKey({ ...base, query: { limit: '25' } });
    expect(cacheKey({ ...base, query: { limit: '10' } })).not.toBe(key);
    expect(cacheKey({ ...base, path: '/exercise/exerciseIds', query: { limit: '25' } })).not.toBe(key);
    expect(cacheKey({ ...base, origin: 'http://127.0.0.1:8787', query: { limit: '25' } })).not.toBe(key);
    expect(cacheKey({ ...base, lang: 'de-DE', query: { limit: '25' } })).not.toBe(key);
    expect(cacheKey({ ...base, lang: undefined, query: { limit: '25' } })).not.toBe(key);
    expect(cacheKey({ ...base, apiKey: 'another-plan-key', query: { limit: '25' } })).not.toBe(key);
  });

  it('treats spellings of one origin and of one language tag alike', () => {
    expect(cacheKey({ ...base, origin: 'HTTPS://API.Example.test:443' })).toBe(cacheKey(base));
    expect(cacheKey({ ...base, lang: 'en-gb' })).toBe(cacheKey(base));
  });

  it('never contains the key, only a short hash of it', () => {
    const key = cacheKey({ ...base, query: { name: 'press' } });
    expect(key).not.toContain(base.apiKey);
    expect(key).toContain(keyHash(base.apiKey));
    expect(keyHash(base.apiKey)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyHash(base.apiKey)).toBe(keyHash('secret-key-123'));
    expect(keyHash(undefined)).toBe('none');
    expect(cacheScope({ origin: base.origin, keyHash: keyHash(base.apiKey), lang: 'en-GB' })).toBe(cacheScope(base));
  });

  it('keeps record keys by id exact and by name case-insensitive', () => {
    const scope = cacheScope(base);
    expect(recordIdKey(scope, 'Barbell_Bench_Press')).not.toBe(recordIdKey(scope, 'barbell_bench_press'));
    expect(recordNameKey(scope, 'Barbell Bench Press')).toBe(recordNameKey(scope, 'BARBELL bench press'));
    expect(recordNameKey(scope, 'x')).not.toBe(recordIdKey(scope, 'x'));
  });
});

describe('cacheRoot', () => {
  it('is the directory env-paths names for the process environment', () => {
    expect(cacheRoot(process.env)).toBe(envPaths('exercises', { suffix: '' }).cache);
  });

  it('follows the environment it is given', () => {
    expect(cacheRoot({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' }, 'linux')).toBe('/x/cache/exercises');
    expect(cacheRoot({ HOME: '/home/u' }, 'linux')).toBe('/home/u/.cache/exercises');
    expect(cacheRoot({ HOME: '/Users/u' }, 'darwin')).toBe('/Users/u/Library/Caches/exercises');
    expect(httpCacheDir('/r')).toBe('/r/http');
    expect(ledgerPath('/r')).toBe('/r/ledger.json');
  });
});
