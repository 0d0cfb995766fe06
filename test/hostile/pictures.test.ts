/**
 * Issue 28's pictures and files opened blind: PNG decompression bombs (a few bytes declaring
 * 30000×30000 or 2³¹−1 square, an interlaced picture whose data inflates far past its header)
 * are refused with one `Cannot draw …` line, quickly and without aborting; a FIFO or a device
 * where a picture, the record index or a served media file should be is refused rather than
 * opened blind (before, each hung the run, the server or its SIGTERM). The hostile files are
 * made here: PNGs by hand, FIFOs with mkfifo, devices with mknod (skipped where not allowed).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { runCli, testEnv } from '../helpers/run-cli.js';
import { tempDirsPerTest } from '../helpers/temp.js';
import { PREMIUM_KEY } from '../helpers/server.js';
import { HAVE_TMUX, startTerminal } from '../terminal/tmux.js';
import { recordIndexPath } from '../../src/server/record-index.js';
import { writePictureCatalogue } from '../helpers/picture-catalogue.js';
import { pngWith } from '../helpers/png-writer.js';

const tempDir = tempDirsPerTest('exercises-pictures-');
const HAVE_MKFIFO = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

/** The bomb of issue 28: under 80 bytes, declaring `side`×`side`. */
function bomb(side: number): Buffer {
  const png = pngWith({ width: side, height: side }, deflateSync(Buffer.alloc(16)));
  expect(png.length).toBeLessThan(80);
  return png;
}

/** A catalogue directory with one exercise, Bomb, whose premium image `start` is `picture` (bytes, or a function making the file). */
function catalogueWith(picture: Buffer | ((path: string) => void)): string {
  return writePictureCatalogue(tempDir(), 'Bomb', { start: picture });
}

/** mknod a character device (the null device's numbers) at `path`; false where this user may not. */
function makeDevice(path: string): boolean {
  return spawnSync('mknod', [path, 'c', '1', '3'], { stdio: 'ignore' }).status === 0 && existsSync(path);
}

const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

describe('PNG decompression bombs', () => {
  it.each([
    ['image', ['image', 'Bomb', '--view=blocks']],
    ['show', ['show', 'Bomb', '--images=blocks']],
  ])(
    '30000×30000 in %s: one refusal line, exit 0, within seconds',
    async (_name, args) => {
      const started = Date.now();
      const r = await runInProcess(['--catalogue', catalogueWith(bomb(30_000)), ...args], { tty: true });
      expect(r.code, r.stderr).toBe(0);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(r.stderr).toMatch(
        /^Cannot draw image "start" of exercise Bomb \(.*start\.png\): its header declares 30000×30000 pixels, over the budget of 16 megapixels\.$/m,
      );
      expect(r.stdout).not.toMatch(/▀/);
    },
    15_000,
  );

  it('the kitty and iTerm2 protocols are held to the same budget (the terminal would decode it)', async () => {
    for (const protocol of ['kitty', 'iterm']) {
      const r = await runInProcess(['--catalogue', catalogueWith(bomb(30_000)), 'image', 'Bomb', `--view=${protocol}`], { tty: true });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/over the budget of 16 megapixels/);
      expect(r.stdout).not.toMatch(/\u001b_G|\u001b\]1337/);
    }
  });

  it.skipIf(!HAVE_TMUX)(
    '2³¹−1 square never aborts the process (a real terminal, tmux)',
    async () => {
      const t = await startTerminal(['--catalogue', catalogueWith(bomb(2 ** 31 - 1)), 'image', 'Bomb', '--view=blocks'], { env: { COLORTERM: 'truecolor' } });
      try {
        expect(await t.exitCode()).toBe(0);
        expect((await t.capture()).replace(/\n/g, '')).toMatch(/Cannot draw image "start" of exercise Bomb.*2147483647×2147483647 pixels, over the budget/);
      } finally {
        t.close();
      }
    },
    30_000,
  );

  it('an interlaced picture whose data inflates far past its header is refused, not inflated', async () => {
    const png = pngWith({ width: 64, height: 64, interlaced: true }, deflateSync(Buffer.alloc(64 * 1024 * 1024)));
    const r = await runInProcess(['--catalogue', catalogueWith(png), 'image', 'Bomb', '--view=blocks'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Cannot draw .*: its image data does not inflate to the 64×64 pixels its header declares\./);
  }, 15_000);
});

describe('a damaged PNG', () => {
  it('a colour key too short for its colour type: our refusal line, no text of Node’s', async () => {
    const png = pngWith({ width: 4, height: 2 }, deflateSync(Buffer.alloc(26)), [['tRNS', Buffer.from([0, 1])]]);
    for (const args of [
      ['image', 'Bomb', '--view=blocks'],
      ['show', 'Bomb', '--images=blocks'],
    ]) {
      const r = await runInProcess(['--catalogue', catalogueWith(png), ...args], { tty: true });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^Cannot draw image "start" of exercise Bomb \(.*start\.png\): its transparency chunk \(tRNS\) is too short for its colour type\.$/m,
      );
      expect(r.stderr).not.toMatch(/offset|out of range|ERR_/i);
    }
  });
});

describe('a picture that is no regular file', () => {
  it.skipIf(!HAVE_MKFIFO)(
    'a FIFO as the picture: refused at once, naming it, exit 0',
    async () => {
      const r = await runInProcess(['--catalogue', catalogueWith(mkfifo), 'image', 'Bomb', '--view=blocks'], { tty: true });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^Cannot draw image "start" of exercise Bomb: .*start\.png is a FIFO, not a regular file\.$/m);
    },
    10_000,
  );

  it('a character device as the picture: refused at once', async (ctx) => {
    let made = true;
    const dir = catalogueWith((path) => {
      made = makeDevice(path);
    });
    if (!made) ctx.skip(); // mknod needs CAP_MKNOD: not allowed for this user
    const r = await runInProcess(['--catalogue', dir, 'image', 'Bomb', '--view=blocks'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/start\.png is a character device, not a regular file\./);
  }, 10_000);
});

describe('the record index', () => {
  it.skipIf(!HAVE_MKFIFO)(
    'a FIFO as the record index: the catalogue is read whole instead, and the run ends',
    async () => {
      const dir = catalogueWith(bomb(8));
      const env = testEnv();
      const indexDir = join(env.XDG_CACHE_HOME!, 'exercises', 'catalogue-records');
      mkdirSync(indexDir, { recursive: true });
      mkfifo(recordIndexPath(indexDir, join(dir, 'exercises.jsonl')));
      const r = await runCli(['--catalogue', dir, 'show', 'Bomb', '--format', 'json'], { env, timeoutMs: 10_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Bomb' });
    },
    15_000,
  );
});

describe('serve with a FIFO in its catalogue', () => {
  let dir: string;
  beforeAll(() => {
    if (HAVE_MKFIFO) dir = catalogueWith(mkfifo);
  });

  it.skipIf(!HAVE_MKFIFO)(
    'answers 404 for it (logged), keeps answering, and ends within 2 s of SIGTERM',
    async () => {
      let url = '';
      let stoppedAt = 0;
      const checks: { media: number[]; record: number } = { media: [], record: 0 };
      const result = await runCli(['serve', dir, '--port', '0'], {
        timeoutMs: 20_000,
        onSpawn(child) {
          let out = '';
          child.stdout!.on('data', (b: Buffer) => {
            if (url) return;
            out += b.toString('utf8');
            const line = /^Listening on (\S+)$/m.exec(out);
            if (!line) return;
            url = line[1]!;
            void (async () => {
              const get = (path: string) => fetch(`${url}${path}`, { headers: { 'x-api-key': PREMIUM_KEY } });
              // Five at once: each used to hold a thread of libuv's pool of four for good.
              checks.media = await Promise.all(
                Array.from({ length: 5 }, async () => {
                  const res = await get('/images/Bomb/premium/start.png');
                  await res.arrayBuffer();
                  return res.status;
                }),
              );
              const record = await get('/exercise/Bomb');
              await record.arrayBuffer();
              checks.record = record.status;
              stoppedAt = Date.now();
              child.kill('SIGTERM');
            })();
          });
        },
      });
      const took = Date.now() - stoppedAt;
      expect(checks.media).toEqual([404, 404, 404, 404, 404]);
      expect(checks.record).toBe(200);
      expect(stoppedAt).toBeGreaterThan(0);
      expect(took).toBeLessThan(2_000);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/GET \/images\/Bomb\/premium\/start\.png 404/);
    },
    30_000,
  );
});
