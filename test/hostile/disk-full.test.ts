/**
 * A full disk under `mirror`, for real: small tmpfs mounts (as root; each case skips, saying so,
 * where one cannot be mounted) under the catalogue, its work folder or its images, filled until
 * a write comes up short and the next one fails with ENOSPC. Every case: exit 6 with the path and
 * the reason, the previous file left whole, and a rerun with room completes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const mounted: string[] = [];

/** Mounts a tmpfs of `size` at `dir` (made if missing), or skips the test saying why. */
function tmpfs(ctx: TestContext, dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    ctx.skip('a tmpfs cannot be mounted here (not root, or no mount permission)');
  }
  mounted.push(dir);
}

/** Gives the tmpfs at `dir` room again: its files stay. */
const grow = (dir: string): void => void execFileSync('mount', ['-o', 'remount,size=4m', dir], { stdio: 'ignore' });

const pngsUnder = (dir: string): string[] => execFileSync('find', [dir, '-name', '*.png'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);

describe('a full disk under mirror', () => {
  let server: CatalogueServer;
  const temp = tempDirsPerTest('disk-full-');
  const mirror = (dir: string, ...args: string[]) => runInProcess(['--base-url', server.url, '--api-key', PREMIUM_KEY, '--no-cache', 'mirror', dir, ...args]);

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    for (const dir of mounted.splice(0).reverse()) execFileSync('umount', [dir]);
  });

  /** Every picture under `dir` is the server's, byte for byte. */
  async function expectWholePictures(dir: string): Promise<number> {
    const pngs = pngsUnder(dir);
    for (const png of pngs) {
      const served = await fetch(`${server.url}/images/${png.split('/').slice(-3).join('/')}`, { headers: { 'x-api-key': PREMIUM_KEY } });
      expect(Buffer.from(await served.arrayBuffer()).equals(readFileSync(png)), png).toBe(true);
    }
    return pngs.length;
  }

  it('the work file fills up mid-line: exit 6 naming records.jsonl, no torn line kept, the rerun with room completes', async (ctx) => {
    const dir = temp();
    const work = join(dir, '.mirror');
    tmpfs(ctx, work, '16k');
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${join(work, 'records.jsonl')}: no space left on device (ENOSPC)`);
    const kept = readFileSync(join(work, 'records.jsonl'), 'utf8');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.endsWith('\n')).toBe(true);
    for (const line of kept.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    grow(work);
    const again = await mirror(dir);
    expect(again.code, again.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'exercises.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(67);
    // The catalogue written is one `--catalogue` accepts.
    const check = await runInProcess(['--catalogue', dir, 'ids', '--all', '--format', 'jsonl']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout.trim().split('\n')).toHaveLength(67);
  });

  it('the disk of the pictures fills up: exit 6 naming the picture, no picture torn under its name, the catalogue kept, the rerun completes', async (ctx) => {
    const dir = temp();
    const images = join(dir, 'images');
    tmpfs(ctx, images, '16k');
    const r = await mirror(dir, '--media', 'images');
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/Cannot write the image "\w+" of exercise \w+: no space left on device \(ENOSPC\)/);
    expect(readFileSync(join(dir, 'exercises.jsonl'), 'utf8').trim().split('\n')).toHaveLength(67);
    await expectWholePictures(images);
    grow(images);
    const again = await mirror(dir, '--media', 'images');
    expect(again.code, again.stderr).toBe(0);
    expect(await expectWholePictures(images)).toBe(26);
  });

  it('the disk is full as mirror rewrites exercises.jsonl: exit 6, the previous catalogue kept byte for byte, no temporary file left', async (ctx) => {
    const mount = temp();
    tmpfs(ctx, mount, '256k');
    const dir = join(mount, 'catalogue');
    mkdirSync(dir);
    const first = await mirror(dir);
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(join(dir, 'exercises.jsonl'));
    // Fill what is left but 8 KiB: the listing still fits, the rewritten catalogue (a new file beside the old one) does not.
    let i = 0;
    try {
      for (;;) writeFileSync(join(mount, `filler-${i++}`), Buffer.alloc(4096));
    } catch {
      // full
    }
    rmSync(join(mount, `filler-${i - 2}`), { force: true });
    rmSync(join(mount, `filler-${i - 3}`), { force: true });
    // A rerun with nothing to fetch: only the listing and the catalogue are written.
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${join(dir, 'exercises.jsonl')}: no space left on device (ENOSPC)`);
    expect(readFileSync(join(dir, 'exercises.jsonl')).equals(before)).toBe(true);
    expect(existsSync(join(dir, `exercises.jsonl.${process.pid}.tmp`))).toBe(false);
  });
});
