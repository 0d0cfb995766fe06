/**
 * `-o` at what is not a regular file: a FIFO (with and without a reader), character devices
 * (null and full device nodes made in a temporary folder), a symbolic link to one, a directory and a socket. A regular file is
 * replaced atomically; a FIFO or device is written through (no `.part`, no rename); a directory or
 * socket is a usage error; a FIFO nobody reads ends on SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type TestContext, describe, expect, it } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const PLANK_START = readFileSync(join(sampleCatalogueDir(), 'images', 'Plank', 'premium', 'start.png'));
const temp = tempDirsPerTest('output-target-');
const image = (out: string) => runInProcess(['--sandbox', 'image', 'Plank', 'start', '-o', out]);
const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

describe('-o at a special file', () => {
  it('a regular file is replaced atomically, as before', async () => {
    const dir = temp();
    const file = join(dir, 'out.png');
    writeFileSync(file, 'old');
    const r = await image(file);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file).equals(PLANK_START)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.png']);
  });

  it('a FIFO with a reader is written through: the reader gets the bytes, the FIFO stays a FIFO, no .part', async () => {
    const dir = temp();
    const fifo = join(dir, 'pipe');
    mkfifo(fifo);
    const got: Buffer[] = [];
    const reading = new Promise<void>((resolve, reject) => {
      const s = createReadStream(fifo);
      s.on('data', (b) => void got.push(Buffer.from(b)));
      s.on('end', resolve);
      s.on('error', reject);
    });
    const r = await image(fifo);
    await reading;
    expect(r.code, r.stderr).toBe(0);
    expect(Buffer.concat(got).equals(PLANK_START)).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  it('a FIFO nobody reads: SIGTERM ends the command (it no longer hangs)', async () => {
    const dir = temp();
    const fifo = join(dir, 'pipe');
    mkfifo(fifo);
    let killedAt = 0;
    const r = await runCli(['--sandbox', 'image', 'Plank', 'start', '-o', fifo], {
      timeoutMs: 20_000,
      // Once it is surely waiting for a reader (start-up on a busy machine can take a second or two).
      onSpawn: (child) =>
        void setTimeout(() => {
          killedAt = Date.now();
          child.kill('SIGTERM');
        }, 3000),
    });
    expect(r.signal, r.stderr).not.toBe('SIGKILL'); // not ended by the test's kill: by SIGTERM
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('Interrupted');
    // Ended by the command itself (the wait for a reader watches the signal), well before main()'s 3 s fallback.
    expect(Date.now() - killedAt).toBeLessThan(2000);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  // Device nodes made for the test in a temporary folder (mknod, as root), never the system's own:
  // a regression that renamed over `-o /dev/null` must not break the machine it runs on.
  // Where mknod is not allowed the test is skipped, saying why: it cannot run, it did not pass.
  const device = (ctx: TestContext, dir: string, name: 'null' | 'full'): string => {
    const path = join(dir, name);
    try {
      execFileSync('mknod', ['-m', '666', path, 'c', '1', name === 'null' ? '3' : '7'], { stdio: 'ignore' });
      return path;
    } catch {
      return ctx.skip(`cannot make a ${name} device node here (mknod needs root); the FIFO cases still run`);
    }
  };

  it('a null device is written through and stays a character device', async (ctx) => {
    const dir = temp();
    const dev = device(ctx, dir, 'null');
    const r = await image(dev);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir)).toEqual(['null']);
  });

  it('a full device: exit 6 naming it and ENOSPC; the device is never renamed over', async (ctx) => {
    const dir = temp();
    const dev = device(ctx, dir, 'full');
    const r = await image(dev);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`Cannot write ${dev}: no space left on device (ENOSPC)`);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir)).toEqual(['full']);
  });

  it('a symbolic link to a device is written through, the link kept', async (ctx) => {
    const dir = temp();
    const dev = device(ctx, dir, 'null');
    const link = join(dir, 'sink');
    symlinkSync(dev, link);
    const r = await image(link);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['null', 'sink']);
  });

  it('a directory is a usage error (exit 2), before any request', async () => {
    const dir = temp();
    const r = await image(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`-o ${dir} is a directory`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a socket is a usage error (exit 2) and stays a socket', async () => {
    const dir = temp();
    const path = join(dir, 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const r = await image(path);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is a socket');
      expect(lstatSync(path).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
