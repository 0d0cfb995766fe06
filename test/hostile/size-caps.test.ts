/**
 * Class 9, media size caps: an endless "PNG" is cut off at the image cap (50 MiB) with its
 * `.part` removed; a Content-Length above the cap is refused before a byte is written.
 */
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_SIZE_CAP_BYTES } from '../../src/defaults.js';
import { type HostileServer, PNG_SIGNATURE, endless, json, startHostileServer } from '../helpers/hostile-server.js';
import { cli, filesUnder, timed } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

const CAP = MEDIA_SIZE_CAP_BYTES.image;

describe('media size caps', () => {
  it('image: an endless PNG is refused at the cap, exit 6, nothing left on disk', async () => {
    server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'] }));
    server.route(/^\/images\//, endless(PNG_SIGNATURE));
    const dir = tempDir();
    const { result: r, ms } = await timed(() => cli(server, ['--retries', '0', 'image', 'A', 'start', '-o', `${dir}/a.png`]));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/50 MiB/);
    expect(filesUnder(dir)).toEqual([]);
    expect(server.bytesSent).toBeLessThan(CAP + 32 * 1024 * 1024); // the cap plus what sat in buffers
    expect(ms).toBeLessThan(20_000);
  }, 30_000);

  it('download: a Content-Length above the cap is refused up front, the file failed (exit 7), no bytes kept', async () => {
    server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start'] }));
    server.route(/^\/images\//, endless(PNG_SIGNATURE, 'image/png', CAP + 1));
    const dir = tempDir();
    const r = await cli(server, ['--retries', '0', 'download', 'A', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/50 MiB/);
    expect(filesUnder(dir)).toEqual([]);
    expect(server.count(/^\/images\//)).toBe(1); // refused, not retried
    expect(existsSync(`${dir}/A/start.png`)).toBe(false);
  });
});
