/**
 * The access log's file: appended to, created mode 640, reopened at its path after a move; a
 * reopen that cannot be done keeps the file in use, and lost lines (a full disk) are said once.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LogFile } from '../../src/proxy/log-file.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const tempDir = tempDirsPerTest('exercises-log-file-');

describe('LogFile', () => {
  test('appends to what is there, keeps its mode; after a move, reopen() writes to a new file at the path, mode 640', () => {
    const dir = tempDir();
    const path = join(dir, 'access.log');
    writeFileSync(path, 'before\n', { mode: 0o600 });
    const warnings: string[] = [];
    const log = new LogFile(path, (line) => warnings.push(line));
    log.write('one\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    renameSync(path, `${path}.1`);
    log.write('two\n');
    expect(log.reopen()).toBe(true);
    log.write('three\n');
    log.close();
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('before\none\ntwo\n');
    expect(readFileSync(path, 'utf8')).toBe('three\n');
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(warnings).toEqual([]);
  });

  test('a reopen that fails keeps the file in use and says why; a path that cannot be opened at start is a usage error', () => {
    const dir = tempDir();
    const sub = join(dir, 'logs');
    const path = join(sub, 'access.log');
    expect(() => new LogFile(path, () => {})).toThrow(/^--access-log \S+access\.log cannot be opened: .*\(ENOENT\)\.$/);
    const kept = join(dir, 'kept.log');
    const warnings: string[] = [];
    const log = new LogFile(kept, (line) => warnings.push(line));
    renameSync(kept, join(dir, 'moved.log'));
    rmSync(dir, { recursive: true, force: true });
    expect(log.reopen()).toBe(false);
    expect(warnings).toEqual([
      expect.stringMatching(/^proxy: --access-log \S+kept\.log cannot be reopened: .*\(ENOENT\); writing on to the file already open\.$/),
    ]);
    log.write('still written\n');
    log.close();
    expect(warnings).toHaveLength(1); // the write went to the file already open
    expect(existsSync(kept)).toBe(false);
  });

  test.skipIf(!existsSync('/dev/full'))('lines lost to a full disk are said once, not once a line', () => {
    const warnings: string[] = [];
    const log = new LogFile('/dev/full', (line) => warnings.push(line));
    log.write('one\n');
    log.write('two\n');
    log.close();
    expect(warnings).toEqual([expect.stringMatching(/^proxy: access log lines lost: .*ENOSPC/)]);
  });
});
