/**
 * Class 4, one retry policy on every path: a Retry-After past the cap (30 s) is not waited out,
 * on JSON and media alike; a server that sends a little per connection cannot keep a download
 * trying forever — attempts per file are capped (MAX_ATTEMPTS_PER_ITEM).
 */
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS_PER_ITEM } from '../../src/defaults.js';
import { type HostileServer, cutEach, json, pngBytes, retryAfter, startHostileServer } from '../helpers/hostile-server.js';
import { cli, filesUnder, timed } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

const record = json({ id: 'A', name: 'A', premiumImages: ['start'] });

describe('retry policy', () => {
  it('show: 429 with Retry-After: 99999 gives up at once, exit 5, one request', async () => {
    server.route(/^\/exercise\//, retryAfter(99_999));
    const { result: r, ms } = await timed(() => cli(server, ['--retries', '3', 'show', 'A']));
    expect(r.code, r.stderr).toBe(5);
    expect(ms).toBeLessThan(3_000);
    expect(server.count(/^\/exercise\//)).toBe(1);
  });

  it('image: a media 429 with Retry-After: 99999 gives up at once too, exit 5, one request', async () => {
    server.route(/^\/exercise\//, record);
    server.route(/^\/images\//, retryAfter(99_999, 429, 'text/plain'));
    const out = `${tempDir()}/a.png`;
    const { result: r, ms } = await timed(() => cli(server, ['--retries', '3', 'image', 'A', 'start', '-o', out]));
    expect(r.code, r.stderr).toBe(5);
    expect(ms).toBeLessThan(3_000);
    expect(server.count(/^\/images\//)).toBe(1);
    expect(existsSync(out)).toBe(false);
  });

  it('download: a Retry-After as an HTTP date a day away is not waited out either', async () => {
    server.route(/^\/exercise\//, record);
    server.route(/^\/images\//, retryAfter(new Date(Date.now() + 86_400_000).toUTCString(), 503, 'text/plain'));
    const { result: r, ms } = await timed(() => cli(server, ['--retries', '3', 'download', 'A', '--images', '--dir', tempDir()]));
    expect(r.code).toBe(7);
    expect(ms).toBeLessThan(3_000);
    expect(server.count(/^\/images\//)).toBe(1);
  });

  it(`image: 1 kB per connection then a cut is tried at most ${MAX_ATTEMPTS_PER_ITEM} times with --retries 1, and nothing half-done is kept as the file`, async () => {
    server.route(/^\/exercise\//, record);
    server.route(/^\/images\//, cutEach(pngBytes(200_000), 1024));
    const dir = tempDir();
    const { result: r, ms } = await timed(() => cli(server, ['--retries', '1', 'download', 'A', '--images', '--dir', dir]));
    expect(r.code, r.stderr).toBe(7);
    const attempts = server.count(/^\/images\//);
    expect(attempts).toBeGreaterThan(2); // bytes kept coming, so more than --retries + 1
    expect(attempts).toBeLessThanOrEqual(MAX_ATTEMPTS_PER_ITEM);
    expect(filesUnder(dir).filter((f) => f.endsWith('.png'))).toEqual([]);
    expect(ms).toBeLessThan(20_000);
  }, 30_000);
});
