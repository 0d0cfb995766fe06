/**
 * --limit-rate's parts: curl's syntax, the media deadline's minimum rate lowered to fit a low
 * limit, and the shared bucket's pause and resume. The command lines against the server
 * (one budget for the whole pool, the deadline, the setting's three sources) are in
 * cli-media.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { setting } from '../../src/config/settings.js';
import { RateLimit, mediaMinRate } from '../../src/media/download/rate-limit.js';
import type { BodyConsumer } from '../../src/http/exchange.js';
import { MEDIA_MIN_BYTES_PER_SECOND } from '../../src/config/time-limits.js';

/** The limit-rate row's own parser, with the row's bounds. */
const LIMIT_RATE = setting('limit-rate');
const parseByteRate = (text: string, name: string): unknown => LIMIT_RATE.parser!(text, name, LIMIT_RATE);

describe('--limit-rate values, as curl takes them', () => {
  it('bytes a second with k, m or g (1024-based, either case), fractions, and 0 for no limit', () => {
    expect(parseByteRate('500', '--limit-rate')).toBe(500);
    expect(parseByteRate('100k', '--limit-rate')).toBe(102_400);
    expect(parseByteRate('100K', '--limit-rate')).toBe(102_400);
    expect(parseByteRate('1.5m', '--limit-rate')).toBe(1_572_864);
    expect(parseByteRate(' 2G ', '--limit-rate')).toBe(2 * 1024 ** 3);
    expect(parseByteRate('0', '--limit-rate')).toBe(0);
  });

  it.each(['', 'fast', '-5k', '10x', '1e3', '0.2', '5 kb', '2000000g'])('refuses %j naming where it came from', (text) => {
    expect(() => parseByteRate(text, 'EXERCISES_LIMIT_RATE')).toThrow(/^EXERCISES_LIMIT_RATE must be bytes per second/);
  });
});

describe('the deadline’s minimum rate under a limit', () => {
  it('the deadline’s minimum rate: unchanged without a limit, half an even share of a low one', () => {
    expect(mediaMinRate(undefined, 4)).toBe(MEDIA_MIN_BYTES_PER_SECOND);
    expect(mediaMinRate(new RateLimit(10 * 1024 * 1024), 4)).toBe(MEDIA_MIN_BYTES_PER_SECOND);
    expect(mediaMinRate(new RateLimit(32_000), 4)).toBe(4_000);
  });
});

describe('the shared bucket', () => {
  it('lets a tenth of a second through at once, then asks each charge to wait for its bytes', () => {
    let now = 1000;
    const limit = new RateLimit(1000, () => now);
    expect(limit.charge(100)).toBe(0); // within the burst
    expect(limit.charge(500)).toBe(500);
    now += 200;
    // Another body charging now waits behind the first: the two share the rate.
    expect(limit.charge(100)).toBe(400);
    now += 10_000;
    expect(limit.delay()).toBe(0);
  });

  it('pauses a body that runs ahead, resumes it once paid for, and hands its end on only then', async () => {
    const limit = new RateLimit(10_000);
    const seen: string[] = [];
    let consumer!: BodyConsumer;
    let resumed = 0;
    const source = {
      start(c: BodyConsumer) {
        consumer = c;
        return { resume: () => void resumed++, destroy: () => {} };
      },
    };
    const started = performance.now();
    let ended!: () => void;
    const end = new Promise<void>((r) => (ended = r));
    limit.throttle(source).start({
      onData: (chunk) => (seen.push(`data ${chunk.length}`), true),
      onEnd: () => (seen.push('end'), ended()),
      onError: () => seen.push('error'),
    });
    expect(consumer.onData(Buffer.alloc(500))).toBe(true); // 50 ms of the rate: within the burst
    expect(consumer.onData(Buffer.alloc(2000))).toBe(false); // 250 ms charged: paused
    consumer.onEnd();
    expect(seen).toEqual(['data 500', 'data 2000']); // the end waits for the bytes to be paid
    await end;
    expect(performance.now() - started).toBeGreaterThanOrEqual(120);
    expect(seen).toEqual(['data 500', 'data 2000', 'end']);
    expect(resumed).toBe(0); // the body had ended: nothing to resume
  });
});
