/**
 * Two processes, one file (hardening: racing processes). Downloads of the same file into the
 * same directory, from a server that sends no Content-Length and writes slowly: two real CLI
 * processes and one download in this process at once. One writer at a time (the file's lock),
 * the final file complete and byte-identical, nothing left behind. And what is renamed is checked
 * through the writer's own descriptor: a `.part` swapped or grown by someone else is refused.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { downloadFile, type MediaTarget } from '../../src/media/download-file.js';
import { UsageError } from '../../src/errors.js';
import { runCli } from '../helpers/run-cli.js';
import { PREMIUM_KEY } from '../helpers/server.js';
import { dripResponse } from '../helpers/faults.js';
import { tempDir } from '../helpers/temp.js';
import { type Intercept, useDownloadServer } from './download-setup.js';

const setup = useDownloadServer([{ id: 'Plank', name: 'Plank', videos: { demo: 3_000_000 } }], { timeoutMs: 10_000 });
const catalogue = setup.catalogue;
const original = readFileSync(catalogue.file('video', 'Plank', 'demo'));

const isMedia = (path: string): boolean => path.startsWith('/videos/');
const out = (): string => tempDir('media-race-');

/**
 * The video, dripped: no Content-Length (chunked), 100 kB every 25 ms, so a download takes ~0.75 s.
 * `whileWriting` runs once the downloader has written its first bytes to `partOf`'s `.part`
 * (watched, not timed: on a busy machine a fixed delay may come before the file is even open).
 */
function slowNoLength(whileWriting?: { partOf: string; run: () => void }): Intercept {
  return (req, res) => {
    if (!isMedia(req.url ?? '')) return false;
    dripResponse(res, original, { contentType: 'video/mp4', chunkBytes: 100_000, intervalMs: 25 });
    if (whileWriting) {
      const part = `${whileWriting.partOf}.part`;
      const watch = setInterval(() => {
        if (!existsSync(part) || statSync(part).size === 0) return;
        clearInterval(watch);
        whileWriting.run();
      }, 5);
    }
    return true;
  };
}

const target = (): MediaTarget => setup.target('video', 'Plank', 'demo');

const cli = (dir: string) =>
  runCli(['--base-url', setup.server.url, 'download', 'Plank', '--videos', '--dir', dir], { env: { EXERCISES_API_KEY: PREMIUM_KEY }, timeoutMs: 25_000 });

describe('two processes, one file', () => {
  it('two CLI processes and an in-process download of the same file: one writer, a complete file, nothing left over', async () => {
    setup.intercept = slowNoLength();
    const dir = out();
    mkdirSync(join(dir, 'Plank'));
    const file = join(dir, 'Plank', 'demo.mp4');
    const notices: string[] = [];
    const [a, b, local] = await Promise.all([
      cli(dir),
      cli(dir),
      downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 }, notice: (l) => notices.push(l) }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(readdirSync(join(dir, 'Plank'))).toEqual(['demo.mp4']); // no .part, sidecar or lock left
    // Whoever came second waited for the first and found the file complete: one transfer in all.
    expect(setup.mediaRequests(), JSON.stringify({ requests: setup.mediaRequests(), a: a.stderr, b: b.stderr, local, notices })).toHaveLength(1);
    if (local.received === 0) {
      expect(local.completedElsewhere).toBe(true);
      expect(notices.join('\n')).toMatch(/Another process is writing the video "demo" of exercise Plank/);
    } else {
      expect(local).toMatchObject({ received: original.length, size: original.length });
    }

    // A later run finds it complete and fetches nothing.
    setup.server.requests.length = 0;
    const again = await cli(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(setup.mediaRequests()).toHaveLength(0);
  });

  it('a download that finds the file locked waits, says so once, and is done when the other completes the file', async () => {
    setup.intercept = slowNoLength();
    const dir = out();
    const file = join(dir, 'demo.mp4');
    const first = downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 } });
    while (!existsSync(`${file}.lock`)) await new Promise((r) => setTimeout(r, 5));
    const notices: string[] = [];
    const second = await downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 }, notice: (l) => notices.push(l) });
    expect(await first).toMatchObject({ received: original.length });
    expect(second).toEqual({ received: 0, size: original.length, resumed: false, completedElsewhere: true });
    expect(notices).toEqual([
      expect.stringMatching(/^Another process is writing the video "demo" of exercise Plank \(.*demo\.mp4\.lock\); waiting up to 60 s for it\.$/),
    ]);
    expect(setup.mediaRequests()).toHaveLength(1);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it('a skip-existing run that finds the file completed by another process between its check and its lock fetches nothing', async () => {
    const dir = out();
    const file = join(dir, 'demo.mp4');
    // Another process's complete file, in place by the time this download takes the lock.
    writeFileSync(file, original);
    const skipping = await downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 }, skipComplete: true });
    expect(skipping).toMatchObject({ received: 0, completedElsewhere: true, size: original.length });
    expect(setup.mediaRequests()).toHaveLength(0);
    // Without skip-existing (an overwrite), the file is fetched anew.
    const overwriting = await downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 } });
    expect(overwriting).toMatchObject({ received: original.length });
    expect(setup.mediaRequests()).toHaveLength(1);
  });

  it('a download that finds the file locked waits, bounded, then gives up on it with a clear error and no request', async () => {
    setup.intercept = slowNoLength();
    const dir = out();
    const file = join(dir, 'demo.mp4');
    const first = downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 } });
    while (!existsSync(`${file}.lock`)) await new Promise((r) => setTimeout(r, 5));
    const notices: string[] = [];
    const started = performance.now();
    const err = await downloadFile(target(), file, {
      transport: setup.transport,
      settings: { retries: 0 },
      lockWaitMs: 300,
      notice: (l) => notices.push(l),
    }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/Another process is writing the video "demo" of exercise Plank .*demo\.mp4\.lock.*gave up/);
    expect(notices).toHaveLength(1);
    await first;
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(setup.mediaRequests()).toHaveLength(1);
  });

  it('takes over a lock left by a process that died (not refreshed for the stale time)', async () => {
    const dir = out();
    const file = join(dir, 'demo.mp4');
    mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const started = performance.now();
    await downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 }, lockWaitMs: 30_000 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(readFileSync(file).equals(original)).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('refuses to rename a .part that another program replaced while it was written', async () => {
    const dir = out();
    const file = join(dir, 'demo.mp4');
    setup.intercept = slowNoLength({
      partOf: file,
      run: () => {
        // Not through the lock: a program that knows nothing of it swaps in a file of its own.
        writeFileSync(`${file}.other`, original.subarray(0, 1000));
        renameSync(`${file}.other`, `${file}.part`);
      },
    });
    const err = await downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/changed while this download was writing it/);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses to rename a .part that another program wrote to as well', async () => {
    const dir = out();
    const file = join(dir, 'demo.mp4');
    setup.intercept = slowNoLength({ partOf: file, run: () => appendFileSync(`${file}.part`, Buffer.alloc(5_000_000, 1)) });
    const err = await downloadFile(target(), file, { transport: setup.transport, settings: { retries: 0 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/changed while this download was writing it/);
    expect(existsSync(file)).toBe(false);
  });
});
