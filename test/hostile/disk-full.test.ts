/**
 * A full or failing disk under `mirror`: short writes, ENOSPC and EIO injected at the write
 * (util/write-all.ts fsCalls, the one seam every checked write goes through), and a real full
 * disk on a small tmpfs where one can be mounted. Every case: exit 6 with the path and the
 * reason, and the previous file left whole.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fsCalls } from '../../src/util/write-all.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const real = { ...fsCalls };
const enospc = (): NodeJS.ErrnoException =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
const eio = (): NodeJS.ErrnoException => Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO', errno: -5, syscall: 'write' });

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
    Object.assign(fsCalls, real);
  });

  it('short writes are continued: the catalogue is whole when the disk takes 100 bytes a call', async () => {
    const dir = temp();
    let calls = 0;
    fsCalls.writeSync = ((fd: number, buffer: Buffer, offset: number, length: number, position: number | null) => {
      calls += 1;
      return real.writeSync(fd, buffer, offset, Math.min(length, 100), position);
    }) as typeof fsCalls.writeSync;
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(calls).toBeGreaterThan(100);
    const lines = readFileSync(join(dir, 'exercises.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(67);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    // The catalogue written is one `--catalogue` accepts.
    const check = await runInProcess(['--catalogue', dir, 'ids', '--all', '--format', 'jsonl']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout.trim().split('\n')).toHaveLength(67);
  });

  it('ENOSPC while rewriting exercises.jsonl: exit 6 naming it, the previous catalogue kept byte for byte, no temporary file left', async () => {
    const dir = temp();
    expect((await mirror(dir)).code).toBe(0);
    const before = readFileSync(join(dir, 'exercises.jsonl'));
    // The disk takes 8 KiB, then is full (what truncated the catalogue to 15 lines).
    let room = 8192;
    fsCalls.writeSync = ((fd: number, buffer: Buffer, offset: number, length: number, position: number | null) => {
      if (length > 200 && room <= 0) throw enospc();
      const n = length > 200 ? Math.min(length, room) : length;
      if (length > 200) room -= n;
      return real.writeSync(fd, buffer, offset, n, position);
    }) as typeof fsCalls.writeSync;
    const r = await mirror(dir, '--refresh');
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${join(dir, 'exercises.jsonl')}`);
    expect(r.stderr).toMatch(/no space left on device \(ENOSPC\)/);
    expect(readFileSync(join(dir, 'exercises.jsonl')).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('EIO at the work file: exit 6 naming records.jsonl, no torn line kept, the next run completes', async () => {
    const dir = temp();
    let writes = 0;
    fsCalls.writeSync = ((fd: number, buffer: Buffer, offset: number, length: number, position: number | null) => {
      writes += 1;
      if (writes === 10) {
        real.writeSync(fd, buffer, offset, Math.floor(length / 2), position); // half a line, then the failure
        throw eio();
      }
      return real.writeSync(fd, buffer, offset, length, position);
    }) as typeof fsCalls.writeSync;
    const r = await mirror(dir);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${join(dir, '.mirror', 'records.jsonl')}`);
    expect(r.stderr).toContain('(EIO)');
    const work = readFileSync(join(dir, '.mirror', 'records.jsonl'), 'utf8');
    expect(work.endsWith('\n')).toBe(true);
    for (const line of work.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    Object.assign(fsCalls, real);
    const again = await mirror(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(dir, 'exercises.jsonl'), 'utf8').trim().split('\n')).toHaveLength(67);
  });

  it('short media writes are continued: every image whole, byte for byte, when the disk takes 64 bytes a call', async () => {
    const dir = temp();
    let calls = 0;
    fsCalls.writev = ((fd: number, buffers: readonly Buffer[], position: number, cb: (err: Error | null, n: number) => void) => {
      calls += 1;
      real.writev(fd, [Buffer.concat(buffers).subarray(0, 64)], position, cb);
    }) as unknown as typeof fsCalls.writev;
    const r = await mirror(dir, '--media', 'images');
    expect(r.code, r.stderr).toBe(0);
    const pngs = execFileSync('find', [join(dir, 'images'), '-name', '*.png'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(pngs.length).toBeGreaterThan(0);
    for (const png of pngs) {
      const served = await fetch(`${server.url}/images/${png.split('/').slice(-3).join('/')}`, { headers: { 'x-api-key': PREMIUM_KEY } });
      expect(Buffer.from(await served.arrayBuffer()).equals(readFileSync(png)), png).toBe(true);
    }
    expect(calls).toBeGreaterThan(pngs.length);
  });

  it('ENOSPC while writing media: exit 6 at once naming the file, nothing under a final name, the catalogue kept', async () => {
    const dir = temp();
    fsCalls.writev = ((...args: unknown[]) => {
      const cb = args[args.length - 1] as (err: Error | null, n: number) => void;
      process.nextTick(cb, enospc(), 0);
    }) as unknown as typeof fsCalls.writev;
    const r = await mirror(dir, '--media', 'images');
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/Cannot write .*\.png\.part: no space left on device \(ENOSPC\)/);
    expect(readFileSync(join(dir, 'exercises.jsonl'), 'utf8').trim().split('\n')).toHaveLength(67);
    const pngs = execFileSync('find', [join(dir, 'images'), '-name', '*.png'], { encoding: 'utf8' }).trim();
    expect(pngs).toBe('');
  });

  it('a real full disk (a 256 KiB tmpfs): exit 6, the previous catalogue kept', async (ctx) => {
    const mount = temp();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      return ctx.skip('a tmpfs cannot be mounted here (not root, or no mount permission); the injected ENOSPC cases above still run');
    }
    try {
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
      expect(r.stderr).toMatch(/Cannot write .*exercises\.jsonl: no space left on device \(ENOSPC\)/);
      expect(readFileSync(join(dir, 'exercises.jsonl')).equals(before)).toBe(true);
      expect(existsSync(join(dir, `exercises.jsonl.${process.pid}.tmp`))).toBe(false);
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});
