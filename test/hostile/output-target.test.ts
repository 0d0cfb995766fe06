/**
 * `-o` at what is not a regular file: a FIFO (with and without a reader), character devices
 * (/dev/null, /dev/full), a symbolic link to one, a directory and a socket. A regular file is
 * replaced atomically; a FIFO or device is written through (no `.part`, no rename); a directory or
 * socket is a usage error; a FIFO nobody reads ends on SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';

const PLANK_START = readFileSync(join(sampleCatalogueDir(), 'images', 'Plank', 'premium', 'start.png'));
const temps: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'output-target-'));
  temps.push(dir);
  return dir;
};
const image = (out: string) => runInProcess(['--sandbox', 'image', 'Plank', 'start', '-o', out]);
const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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
    const started = Date.now();
    const r = await runCli(['--sandbox', 'image', 'Plank', 'start', '-o', fifo], {
      timeoutMs: 20_000,
      // Once it is surely waiting for a reader (start-up on a busy machine can take a second or two).
      onSpawn: (child) => void setTimeout(() => child.kill('SIGTERM'), 3000),
    });
    expect(r.signal, r.stderr).not.toBe('SIGKILL'); // not ended by the test's kill: by SIGTERM
    expect(r.code).toBe(130);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  it('/dev/null is written through and stays a character device', async () => {
    const r = await image('/dev/null');
    expect(r.code, r.stderr).toBe(0);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(existsSync('/dev/null.part')).toBe(false);
  });

  it('/dev/full: exit 6 naming it and ENOSPC; the device is never renamed over', async () => {
    if (!existsSync('/dev/full')) return void console.warn('skipped: no /dev/full here');
    const r = await image('/dev/full');
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/Cannot write \/dev\/full: .*\(ENOSPC\)/);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('a symbolic link to a device is written through, the link kept', async () => {
    const dir = temp();
    const link = join(dir, 'sink');
    symlinkSync('/dev/null', link);
    const r = await image(link);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync(dir)).toEqual(['sink']);
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
