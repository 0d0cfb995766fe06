/**
 * The file lock (src/util/file-lock.ts): held by one at a time, released whole, and never left
 * behind by a process that could not finish taking it (a full disk, for real: a tmpfs as root).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFile, lockPathOf } from '../../src/util/file-lock.js';
import { tempDir } from '../helpers/temp.js';

describe('the file lock', () => {
  it('is held by one at a time: the second waits, bounded, and gets it once the first lets go', async () => {
    const file = join(tempDir('file-lock-'), 'demo.mp4');
    const first = await lockFile(file, { waitMs: 5_000, staleMs: 10_000 });
    expect(first.waited).toBe(false);
    expect(existsSync(lockPathOf(file))).toBe(true);
    const second = lockFile(file, { waitMs: 5_000, staleMs: 10_000 });
    await first.lock.release();
    const got = await second;
    expect(got.waited).toBe(true);
    await got.lock.release();
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it('is not left behind when its owner file cannot be written (a full disk): the next taker gets it at once', async (ctx) => {
    const mount = tempDir('file-lock-full-');
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      return ctx.skip('a tmpfs cannot be mounted here (not root, or no mount permission)');
    }
    try {
      mkdirSync(join(mount, 'Plank'));
      writeFileSync(join(mount, 'filler'), Buffer.alloc(4096));
      const file = join(mount, 'Plank', 'demo.mp4');
      await expect(lockFile(file, { waitMs: 5_000, staleMs: 10_000 })).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(existsSync(lockPathOf(file))).toBe(false);
      execFileSync('mount', ['-o', 'remount,size=1m', mount], { stdio: 'ignore' });
      const started = Date.now();
      const again = await lockFile(file, { waitMs: 5_000, staleMs: 10_000 });
      expect(again.waited).toBe(false);
      expect(Date.now() - started).toBeLessThan(5_000);
      await again.lock.release();
    } finally {
      execFileSync('umount', [mount]);
    }
  });
});
