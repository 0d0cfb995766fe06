/** Watching a file by its directory (src/util/file-watch.ts): a file that cannot be watched is said, not thrown. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchFile } from '../../src/util/file-watch.js';
import { tempDir } from '../helpers/temp.js';

const dirs: string[] = [];
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('watchFile', () => {
  it('calls back once the file has changed', async () => {
    const dir = tempDir('exercises-watch-');
    dirs.push(dir);
    const file = join(dir, 'keys');
    writeFileSync(file, 'a\n');
    const changed = vi.fn();
    stops.push(watchFile(file, 20, changed, () => {}));
    writeFileSync(file, 'b\n');
    await vi.waitUntil(() => changed.mock.calls.length > 0, { timeout: 5_000, interval: 20 });
    expect(changed).toHaveBeenCalled();
  });

  it('a file whose directory cannot be watched: the reason is said, nothing is thrown, stopping is harmless', () => {
    const unwatched = vi.fn();
    const stop = watchFile('/nonexistent-exercises-dir/keys', 20, () => {}, unwatched);
    expect(unwatched).toHaveBeenCalledWith(expect.stringContaining('ENOENT'));
    expect(() => stop()).not.toThrow();
  });
});
