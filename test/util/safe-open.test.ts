/**
 * util/safe-open.ts, the one rule for opening files: a regular file within its bound is read
 * (sync and async), anything else is refused at once with RefusedFileError naming the path: a
 * FIFO with no writer (which a blind open would wait on for ever), a directory, a character
 * device (made with mknod where allowed), a file over the bound; a missing file keeps ENOENT.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RefusedFileError, openRegularFile, openRegularFileSync, readRegularFile, readRegularFileSync } from '../../src/util/safe-open.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const tempDir = tempDirsPerTest('exercises-safe-open-');
const HAVE_MKFIFO = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

describe('readRegularFile / readRegularFileSync', () => {
  it('read a regular file within the bound, whole', async () => {
    const file = join(tempDir(), 'f.txt');
    writeFileSync(file, 'hello, file');
    expect(readRegularFileSync(file, { maxBytes: 11 }).toString()).toBe('hello, file');
    expect((await readRegularFile(file, { maxBytes: 11 })).toString()).toBe('hello, file');
    const empty = join(tempDir(), 'empty');
    writeFileSync(empty, '');
    expect(readRegularFileSync(empty, { maxBytes: 0 })).toHaveLength(0);
  });

  it('refuse a file over the bound, naming it', async () => {
    const file = join(tempDir(), 'big.bin');
    writeFileSync(file, Buffer.alloc(101));
    expect(() => readRegularFileSync(file, { maxBytes: 100 })).toThrow(`${file} holds 101 bytes, over the 100-byte bound for it`);
    await expect(readRegularFile(file, { maxBytes: 100 })).rejects.toMatchObject({ name: 'RefusedFileError', reason: 'too large', path: file });
  });

  it('refuse a directory, and keep ENOENT for a missing file', async () => {
    const dir = tempDir();
    expect(() => readRegularFileSync(dir, { maxBytes: 100 })).toThrow(`${dir} is a directory, not a regular file`);
    await expect(readRegularFile(join(dir, 'none'), { maxBytes: 100 })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => readRegularFileSync(join(dir, 'none'), { maxBytes: 100 })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it.skipIf(!HAVE_MKFIFO)('refuse a FIFO with no writer at once, sync and async (a blind open waits for a writer)', async () => {
    const fifo = join(tempDir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => readRegularFileSync(fifo, { maxBytes: 100 })).toThrow(RefusedFileError);
    expect(() => openRegularFileSync(fifo, { maxBytes: 100 })).toThrow(`${fifo} is a FIFO, not a regular file`);
    await expect(readRegularFile(fifo, { maxBytes: 100 })).rejects.toThrow(`${fifo} is a FIFO, not a regular file`);
    await expect(openRegularFile(fifo, { maxBytes: 100 })).rejects.toMatchObject({ reason: 'not a regular file', code: 'EREFUSED' });
  });

  it('refuse a character device (mknod)', async (ctx) => {
    const device = join(tempDir(), 'zero');
    if (spawnSync('mknod', [device, 'c', '1', '5'], { stdio: 'ignore' }).status !== 0 || !existsSync(device)) ctx.skip(); // needs CAP_MKNOD
    expect(() => readRegularFileSync(device, { maxBytes: 1024 })).toThrow(`${device} is a character device, not a regular file`);
    await expect(readRegularFile(device, { maxBytes: 1024 })).rejects.toThrow(RefusedFileError);
  });

  it('openRegularFile gives the handle and its stat for a caller that streams', async () => {
    const file = join(tempDir(), 'f.bin');
    writeFileSync(file, Buffer.alloc(42, 1));
    const { handle, stat } = await openRegularFile(file, { maxBytes: 42 });
    try {
      expect(stat.size).toBe(42);
      expect((await handle.read(Buffer.alloc(4), 0, 4, 0)).bytesRead).toBe(4);
    } finally {
      await handle.close();
    }
  });
});
