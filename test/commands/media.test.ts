/** `exercises image`, `video` and `download`: run(options, ctx) in-process against a fake transport. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadOptions, run as download } from '../../src/commands/download.js';
import { runSingleMedia, singleMediaOptions } from '../../src/commands/shared/media-single.js';
import { mp4Bytes, pngBytes } from '../media/media-catalogue.js';
import { tempDir } from '../helpers/temp.js';
import { runCommand } from '../helpers/test-context.js';
import { BENCH, PLANK, fakeRun } from './support.js';

const START = pngBytes(20_000);
const DEMO = mp4Bytes(50_000);

describe('image and video run()', () => {
  it('image <id> <name> -o <file>: the media named straight away (no record request), the bytes on disk', async () => {
    const t = fakeRun();
    t.http.bytes('/images/Barbell_Bench_Press/premium/start.png', START, 'image/png');
    const file = join(tempDir('commands-media-'), 'start.png');
    const r = await runCommand(runSingleMedia, singleMediaOptions('image', 'Barbell_Bench_Press', ['start'], { output: file }, t.ctx.io), t);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file).equals(START)).toBe(true);
    expect(t.http.requests()).toEqual(['/images/Barbell_Bench_Press/premium/start.png']);
  });

  it('video with no name fetches every video the record lists into <dir>/<id>/', async () => {
    const t = fakeRun();
    t.http.json('/exercise/Barbell_Bench_Press', BENCH);
    t.http.bytes('/videos/Barbell_Bench_Press/premium/demo.mp4', DEMO, 'video/mp4');
    const dir = tempDir('commands-media-');
    const r = await runCommand(runSingleMedia, singleMediaOptions('video', 'Barbell_Bench_Press', [], { dir }, t.ctx.io), t);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Barbell_Bench_Press', 'demo.mp4')).equals(DEMO)).toBe(true);
  });

  it('a 403 on the media (a free plan) is exit 3 and leaves no file', async () => {
    const t = fakeRun();
    t.http.error('/images/Barbell_Bench_Press/premium/start.png', 403, 'FORBIDDEN', 'Premium only.');
    const dir = tempDir('commands-media-');
    const file = join(dir, 'start.png');
    const r = await runCommand(runSingleMedia, singleMediaOptions('image', 'Barbell_Bench_Press', ['start'], { output: file }, t.ctx.io), t);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/premium plan/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('an unknown exercise: the media 404s, then one record request 404s too: exit 4 naming it', async () => {
    const t = fakeRun();
    t.http.error('/images/Nope/premium/start.png', 404, 'NOT_FOUND', 'No such file.');
    t.http.error('/exercise/Nope', 404, 'NOT_FOUND', 'No such exercise.');
    const r = await runCommand(runSingleMedia, singleMediaOptions('image', 'Nope', ['start'], { dir: tempDir('commands-media-') }, t.ctx.io), t);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('"Nope"');
    expect(t.http.requests()).toEqual(['/images/Nope/premium/start.png', '/exercise/Nope']);
  });

  it('bytes that are not a PNG are refused (exit 6) and not kept', async () => {
    const t = fakeRun();
    t.http.bytes('/images/Barbell_Bench_Press/premium/start.png', Buffer.from('<html>not an image</html>'), 'image/png');
    const file = join(tempDir('commands-media-'), 'start.png');
    const r = await runCommand(runSingleMedia, singleMediaOptions('image', 'Barbell_Bench_Press', ['start'], { output: file }, t.ctx.io), t);
    expect(r.code).toBe(6);
    expect(existsSync(file)).toBe(false);
  });

  it('an empty media name is a usage error before any request', () => {
    const t = fakeRun();
    expect(() => singleMediaOptions('image', 'Plank', [' '], {}, t.ctx.io)).toThrow(/cannot be empty/);
  });
});

describe('download run()', () => {
  it('fetches the images of the ids given into <dir>/<id>/ and sums up', async () => {
    const t = fakeRun();
    t.http.json('/exercise/Plank', PLANK);
    t.http.bytes('/images/Plank/premium/start.png', START, 'image/png');
    const dir = tempDir('commands-download-');
    const r = await runCommand(download, await downloadOptions(['Plank'], { images: true, dir, concurrency: 1 }), t);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'Plank', 'start.png')).equals(START)).toBe(true);
  });

  it('a missing exercise among several is a partial failure (exit 7); the others are fetched', async () => {
    const t = fakeRun();
    t.http.json('/exercise/Plank', PLANK);
    t.http.bytes('/images/Plank/premium/start.png', START, 'image/png');
    t.http.error('/exercise/Nope', 404, 'NOT_FOUND', 'No such exercise.');
    const dir = tempDir('commands-download-');
    const r = await runCommand(download, await downloadOptions(['Plank', 'Nope'], { images: true, dir, concurrency: 1 }), t);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('Nope');
    expect(existsSync(join(dir, 'Plank', 'start.png'))).toBe(true);
  });

  it('a 429 on every media request ends with exit 5 or 7, never a half-written file', async () => {
    const t = fakeRun();
    t.http.json('/exercise/Plank', PLANK);
    t.http.error('/images/Plank/premium/start.png', 429, 'RATE_LIMITED', 'Slow down.', { times: Infinity });
    const dir = tempDir('commands-download-');
    const r = await runCommand(download, await downloadOptions(['Plank'], { images: true, dir, concurrency: 1 }), t);
    expect([5, 7]).toContain(r.code);
    expect(existsSync(join(dir, 'Plank', 'start.png'))).toBe(false);
  });

  it('a bad enum filter is a usage error naming the valid values', async () => {
    await expect(downloadOptions([], { images: true, concurrency: 1, level: ['expertt'] })).rejects.toThrow(/Did you mean expert\?/);
  });
});
