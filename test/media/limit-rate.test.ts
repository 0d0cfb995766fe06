/**
 * --limit-rate: curl's syntax, one budget shared by the whole pool (not one per file), the media
 * deadline's minimum rate lowered to fit a low limit, and the throttle's pause and resume.
 * Against the project's own server on 127.0.0.1, with its media answered by `intercept`.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type InProcessOptions, runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { isolatedHome } from '../helpers/run-cli.js';
import { mp4Bytes } from './media-catalogue.js';
import { parseByteRate } from '../../src/config/byte-rate.js';
import { RateLimit, mediaMinRate } from '../../src/media/download/rate-limit.js';
import type { BodyConsumer } from '../../src/http/body-source.js';
import { MEDIA_MIN_BYTES_PER_SECOND } from '../../src/defaults.js';

type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
let intercept: Intercept | undefined;
let server: CatalogueServer;

beforeAll(async () => {
  server = await startServer({ intercept: (req, res) => (intercept ? intercept(req, res) : false) });
});
afterAll(() => server.close());
afterEach(() => {
  intercept = undefined;
  server.requests.length = 0;
});

function cli(args: string[], options: InProcessOptions = {}) {
  return runInProcess(['--base-url', server.url, ...args], { ...options, env: { EXERCISES_API_KEY: PREMIUM_KEY, ...options.env } });
}

/** Answers every video request with `body`, whole and at once: only the client's limit slows it. */
function serveVideos(body: Buffer): void {
  intercept = (req, res) => {
    if (!(req.url ?? '').startsWith('/videos/')) return false;
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) });
    res.end(body);
    return true;
  };
}

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

  it('the flag, the variable and `config set` each set it, in bytes a second; 0 on the flag lifts a stored limit', async () => {
    const home = isolatedHome();
    const limitRate = async (env: Record<string, string>, flags: string[] = []) => {
      const r = await runInProcess([...flags, 'config', 'list', '--json'], { env: { HOME: home, ...env } });
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as Record<string, unknown>)['limit-rate'];
    };
    expect(await limitRate({}, ['--limit-rate', '2m'])).toMatchObject({ value: 2 * 1024 * 1024, source: 'flag' });
    expect(await limitRate({ EXERCISES_LIMIT_RATE: '100k' })).toMatchObject({ source: 'env' });
    const set = await runInProcess(['config', 'set', 'limit-rate', '500k'], { env: { HOME: home } });
    expect(set.code, set.stderr).toBe(0);
    expect(await limitRate({})).toMatchObject({ value: 512_000, source: 'config' });
    expect(await limitRate({}, ['--limit-rate', '0'])).toMatchObject({ value: 0, source: 'flag' });
    const bad = await runInProcess(['config', 'set', 'limit-rate', 'lots'], { env: { HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('limit-rate must be bytes per second');
  });

  it('a bad value on the command line or in the variable: exit 2 with the setting’s message, before any request', async () => {
    const flag = await cli(['download', 'Plank', '--dir', tempDir('limit-'), '--limit-rate', 'fast']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--limit-rate must be bytes per second');
    const variable = await cli(['video', 'Plank', '--dir', tempDir('limit-')], { env: { EXERCISES_LIMIT_RATE: '12q' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('EXERCISES_LIMIT_RATE must be bytes per second');
    expect(server.requests).toHaveLength(0);
  });
});

describe('a limited download', () => {
  it('shares one budget across the pool: two 100 KB files at once under 100k take about 2 s, not 1', async () => {
    const body = mp4Bytes(100_000);
    serveVideos(body);
    const dir = tempDir('limit-');
    const started = performance.now();
    const r = await cli(['download', 'Plank', 'Push_Up', '--videos', '--dir', dir, '--concurrency', '2', '--limit-rate', '100k']);
    const seconds = (performance.now() - started) / 1000;
    expect(r.code, r.stderr).toBe(0);
    // 200,000 bytes at 102,400 a second, less the tenth of a second of burst: ≥ 1.85 s. A bucket per file would take ~1 s.
    expect(seconds).toBeGreaterThanOrEqual(1.8);
    expect(readFileSync(join(dir, 'Plank/demo.mp4')).equals(body)).toBe(true);
  });

  it('video -o <file> follows the variable too', async () => {
    const body = mp4Bytes(60_000);
    serveVideos(body);
    const file = join(tempDir('limit-'), 'plank.mp4');
    const started = performance.now();
    const r = await cli(['video', 'Plank', 'demo', '-o', file], { env: { EXERCISES_LIMIT_RATE: '100k' } });
    expect(r.code, r.stderr).toBe(0);
    expect((performance.now() - started) / 1000).toBeGreaterThanOrEqual(0.45);
    expect(readFileSync(file).equals(body)).toBe(true);
  });

  it('a limit below the deadline’s minimum rate does not make the download time out', async () => {
    // The server drips 60 bytes at 25 a second (2.4 s); the client takes 20 a second. After the
    // grace (3 × 300 ms) the usual rule would ask 8 KiB/s and cut the file at about 0.9 s.
    const body = mp4Bytes(60);
    intercept = (req, res) => {
      if (!(req.url ?? '').startsWith('/videos/')) return false;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) });
      let sent = 0;
      const drip = setInterval(() => {
        if (res.destroyed) return clearInterval(drip);
        res.write(body.subarray(sent, sent + 1));
        if (++sent === body.length) {
          clearInterval(drip);
          res.end();
        }
      }, 40);
      return true;
    };
    const file = join(tempDir('limit-'), 'plank.mp4');
    const r = await cli(['video', 'Plank', 'demo', '-o', file, '--timeout', '300ms', '--limit-rate', '20', '--retries', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file).equals(body)).toBe(true);
  });

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
