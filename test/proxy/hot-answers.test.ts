/**
 * Hot answers: the store's entries held in memory, bounded by bytes (least recently used out
 * first), answered without reading their file while fresh, read again from disk once not
 * (another proxy sharing the directory may have refreshed them); and the access log written
 * in one batch per turn of the event loop.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { freshnessFor } from '../../src/cache/headers.js';
import { entryPath } from '../../src/cache/store-files.js';
import { AnswerStore, HotAnswers, answerKey, fromStored, storedAnswer } from '../../src/proxy/answer-store.js';
import { batchedLines, isoNow } from '../../src/proxy/access-log.js';
import { tempDir } from '../helpers/temp.js';
import { ALICE, GUEST, type ProxyFixture, startProxy } from './proxy-helpers.js';

async function entry(body: string, headers: Record<string, string> = { 'cache-control': 'max-age=600', etag: '"v1"' }) {
  const judged = await freshnessFor({ 'content-type': 'application/json', ...headers }, Date.now());
  if (!judged) throw new Error('not storable');
  return storedAnswer(judged.freshness, judged.policy, Buffer.from(body));
}

const always = (): boolean => true;
const never = (): boolean => false;

let dirs: string[] = [];
let f: ProxyFixture | undefined;
afterEach(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
  await f?.stop();
  f = undefined;
});

describe('HotAnswers', () => {
  test('holds entries within its bytes, the least recently used going first', () => {
    const hot = new HotAnswers<string>(100);
    hot.set('a', 'A', 40);
    hot.set('b', 'B', 40);
    expect(hot.get('a')).toBe('A'); // a is now the most recently used
    hot.set('c', 'C', 40);
    expect(hot.get('b')).toBeUndefined();
    expect(hot.get('a')).toBe('A');
    expect(hot.get('c')).toBe('C');
    expect(hot.bytes).toBe(80);
  });

  test('an entry larger than the whole bound is not held, and replacing one counts its new size only', () => {
    const hot = new HotAnswers<string>(100);
    hot.set('big', 'X', 101);
    expect(hot.get('big')).toBeUndefined();
    expect(hot.bytes).toBe(0);
    hot.set('a', 'A', 60);
    hot.set('a', 'A2', 30);
    expect(hot.bytes).toBe(30);
    expect(hot.size).toBe(1);
    hot.delete('a');
    expect(hot.bytes).toBe(0);
  });
});

describe('AnswerStore in memory', () => {
  test('a fresh entry is answered from memory: its file removed, it is still there', async () => {
    const dir = tempDir('exercises-hot-');
    dirs.push(dir);
    const store = new AnswerStore(dir);
    const key = answerKey('http://127.0.0.1:1/', 'upstream-key-hash', '/exercise/Push_Up', '');
    const put = await entry('{"id":"Push_Up"}');
    await store.put(key, put);
    rmSync(entryPath(dir, key));
    const got = await store.get(key, always);
    expect(got).toBe(put);
  });

  test('one no longer fresh is read again from disk, where another proxy of the directory refreshed it', async () => {
    const dir = tempDir('exercises-hot-');
    dirs.push(dir);
    const mine = new AnswerStore(dir);
    const other = new AnswerStore(dir);
    const key = answerKey('http://127.0.0.1:1/', 'upstream-key-hash', '/exercise/Push_Up', '');
    await mine.put(key, await entry('{"v":1}'));
    await other.put(key, await entry('{"v":2}'));
    expect((await mine.get(key, always))?.body.toString()).toBe('{"v":1}');
    expect((await mine.get(key, never))?.body.toString()).toBe('{"v":2}');
    // and the entry read from disk is the one held from now on
    rmSync(entryPath(dir, key));
    expect((await mine.get(key, always))?.body.toString()).toBe('{"v":2}');
  });

  test('a memory bound smaller than the entry keeps nothing in memory: the disk answers', async () => {
    const dir = tempDir('exercises-hot-');
    dirs.push(dir);
    const store = new AnswerStore(dir, () => {}, 10);
    const key = answerKey('http://127.0.0.1:1/', 'upstream-key-hash', '/exercise/Push_Up', '');
    await store.put(key, await entry('{"id":"Push_Up"}'));
    rmSync(entryPath(dir, key));
    expect(await store.get(key, always)).toBeUndefined();
  });

  test('the prepared headers leave Age and Date to each answer; Age is the entry age now', async () => {
    const stored = await entry('{}', { 'cache-control': 'max-age=600', etag: '"v1"', age: '30' });
    expect(stored.headers.age).toBeUndefined();
    expect(stored.headers.date).toBeUndefined();
    expect(stored.headers.etag).toBe('"v1"');
    expect(fromStored(stored, 'hit').age).toBe('30');
  });
});

describe('the proxy with hot answers', () => {
  test('a hit is answered from memory once stored: the store directory removed, the hit stays a hit with the same bytes', async () => {
    f = await startProxy();
    const first = await f.get('/exercise/Push_Up');
    const body = await first.text();
    rmSync(join(f.root, 'http'), { recursive: true, force: true });
    const again = await f.get('/exercise/Push_Up');
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(body);
    expect(again.headers.get('age')).toMatch(/^\d+$/);
    expect(f.upstreamCount()).toBe(1);
    expect(f.log.at(-1)).toMatch(/ 200 hit /);
  });
});

describe('what a hit shares with the hits before it', () => {
  test('the rate headers follow the upstream count: a hit after a miss elsewhere says the new count', async () => {
    f = await startProxy();
    await (await f.get('/exercise/Push_Up')).arrayBuffer();
    const before = await f.get('/exercise/Push_Up');
    expect(before.headers.get('x-ratelimit-used')).toBe('1');
    await (await f.get('/exercise/Plank')).arrayBuffer();
    const after = await f.get('/exercise/Push_Up');
    expect(after.headers.get('x-ratelimit-used')).toBe('2');
    expect(f.log.at(-1)).toMatch(/ 200 hit /);
  });

  test("a free client's hits keep the cut's ETag and length, and a premium client's the upstream's", async () => {
    f = await startProxy();
    const premium = await f.get('/exercise/Push_Up');
    const premiumBody = await premium.text();
    const [first, second] = [await f.get('/exercise/Push_Up', GUEST), await f.get('/exercise/Push_Up', GUEST)];
    const [firstBody, secondBody] = [await first.text(), await second.text()];
    expect(secondBody).toBe(firstBody);
    expect(firstBody).not.toContain('premiumImages');
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('etag')).not.toBe(premium.headers.get('etag'));
    expect(Number(second.headers.get('content-length'))).toBe(Buffer.byteLength(secondBody));
    const premiumAgain = await f.get('/exercise/Push_Up');
    expect(premiumAgain.headers.get('etag')).toBe(premium.headers.get('etag'));
    expect(await premiumAgain.text()).toBe(premiumBody);
  });

  test('a query value that becomes a key on reload is masked from then on, though the same target was logged before', async () => {
    f = await startProxy();
    const target = '/exercise/Push_Up?api_key=soon-a-key-12345';
    await (await f.get(target)).arrayBuffer();
    expect(f.log.at(-1)).toContain('api_key=soon-a-key-12345');
    f.proxy.setKeys({ [ALICE]: { plan: 'premium' }, 'soon-a-key-12345': { plan: 'free' } });
    await (await f.get(target)).arrayBuffer();
    expect(f.log.at(-1)).toContain('api_key=***');
    expect(f.log.at(-1)).not.toContain('soon-a-key');
  });
});

describe('isoNow', () => {
  test('is the ISO 8601 UTC time of the millisecond given, the same text within one', () => {
    expect(isoNow(Date.UTC(2026, 10, 26, 18, 5, 7, 42))).toBe('2026-11-26T18:05:07.042Z');
    expect(isoNow(Date.UTC(2026, 10, 26, 18, 5, 7, 43))).toBe('2026-11-26T18:05:07.043Z');
    const now = Date.now();
    expect(isoNow(now)).toBe(isoNow(now));
  });
});

describe('batchedLines', () => {
  test('the lines of one turn go out in one write, in order, after the turn', async () => {
    const writes: string[] = [];
    const log = batchedLines({ write: (text: string) => writes.push(text) > 0 });
    log('one');
    log('two');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['one\ntwo\n']);
    log('three');
    log.flush();
    expect(writes).toEqual(['one\ntwo\n', 'three\n']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });
});
