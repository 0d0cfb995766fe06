/**
 * Class 3, whole-life deadlines: a server that drips a byte now and then resets every idle
 * timeout, so only a bound on the request's whole life ends it. JSON: 3 × --timeout from
 * connect to last byte. Media: after the same grace, at least 8 KiB/s on average.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, drip, json, pngBytes, startHostileServer } from '../helpers/hostile-server.js';
import { cli, timed } from './support.js';
import { existsSync } from 'node:fs';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

describe('whole-life deadlines', () => {
  it('show: a body dripping one byte every 100 ms ends at 3 × --timeout, exit 6', async () => {
    server.route(/^\/exercise\//, drip(100));
    const { result: r, ms } = await timed(() => cli(server, ['--timeout', '400', '--retries', '0', 'show', 'Slow']));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/at most 3 × --timeout, 1200 ms/);
    expect(ms).toBeGreaterThanOrEqual(1_100);
    expect(ms).toBeLessThan(3_000);
    expect(server.count(/^\/exercise\//)).toBe(1);
  });

  it('show: each retry has its own bound, and the retries end too', async () => {
    server.route(/^\/exercise\//, drip(100));
    const { result: r, ms } = await timed(() => cli(server, ['--timeout', '300', '--retries', '1', 'show', 'Slow']));
    expect(r.code).toBe(6);
    expect(server.count(/^\/exercise\//)).toBe(2);
    expect(ms).toBeLessThan(2 * 900 + 3_000); // two bounded attempts and one backoff
  });

  it('image: media dripping a byte every 50 ms fails once past the grace it averages under 8 KiB/s', async () => {
    server.route(/^\/exercise\//, json({ id: 'Slow', name: 'Slow', premiumImages: ['start'] }));
    server.route(/^\/images\//, drip(50, { body: pngBytes(100_000), contentType: 'image/png', contentLength: 100_000 }));
    const out = `${tempDir()}/slow.png`;
    const { result: r, ms } = await timed(() => cli(server, ['--timeout', '300', '--retries', '0', 'image', 'Slow', 'start', '-o', out]));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/KiB\/s/);
    expect(existsSync(out)).toBe(false);
    // Each attempt ends soon after the 900 ms grace; attempts are capped per file.
    expect(ms).toBeLessThan(25_000);
    expect(server.count(/^\/images\//)).toBeLessThanOrEqual(20);
  }, 30_000);
});
