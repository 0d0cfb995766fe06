/**
 * The launcher's code caches hold code that runs as the user: they are private (directory
 * 0700, files 0600, whatever the umask), and a cache someone else could have written — a file
 * or directory owned by another user, writable by group or others, or a symbolic link — is
 * never used, nor written through. "Used" shows as the file left as it is (a cache V8 accepts is
 * not written again); "ignored" as the file replaced by a new one of the user's own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH, isolatedHome, testEnv } from '../helpers/run-cli.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/**
 * `exercises --no-color --help` under `umask`: it loads the bundle, with the `default` code cache
 * (a plain --help into a pipe is printed by the launcher without it, bin/startup/static-help.js).
 */
function help(home: string, umask = '022'): void {
  const r = spawnSync('sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, CLI_PATH, '--no-color', '--help'], {
    env: testEnv({ HOME: home }),
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('USAGE\n  exercises <command>');
}

function setUp(): { home: string; dir: string; file: string } {
  const home = isolatedHome();
  homes.push(home);
  const dir = join(home, '.cache', 'exercises', 'code-cache');
  return { home, dir, file: join(dir, 'cli.cjs.default.v8') };
}

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

describe.skipIf(process.platform === 'win32')('launcher code cache: private, and only the user’s own is used', () => {
  it.each(['000', '077', '022'])('is 0700/0600 under umask %s', (umask) => {
    const { home, dir, file } = setUp();
    help(home, umask);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['cli.cjs.default.v8']); // no partial file left behind
  });

  it('uses a cache of its own as it is', () => {
    const { home, file } = setUp();
    help(home);
    const before = statSync(file);
    help(home);
    expect(statSync(file).ino).toBe(before.ino);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
  });

  it('ignores a cache file writable by others, and replaces it with a private one', () => {
    const { home, file } = setUp();
    help(home);
    chmodSync(file, 0o666);
    const planted = statSync(file).ino;
    help(home);
    expect(statSync(file).ino).not.toBe(planted);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('tightens its own directory left open to others, and does not trust it until then', () => {
    const { home, dir, file } = setUp();
    help(home);
    chmodSync(dir, 0o777);
    const planted = statSync(file).ino;
    help(home);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).ino).not.toBe(planted);
  });

  it.skipIf(!isRoot)('ignores a cache file owned by another user', () => {
    const { home, file } = setUp();
    help(home);
    chownSync(file, NOBODY, NOBODY);
    help(home);
    expect(statSync(file).uid).toBe(0);
  });

  it.skipIf(!isRoot)('neither reads nor writes a cache directory owned by another user', () => {
    const { home, dir, file } = setUp();
    help(home);
    rmSync(file);
    chownSync(dir, NOBODY, NOBODY);
    help(home);
    expect(readdirSync(dir)).toEqual([]);
    expect(statSync(dir).uid).toBe(NOBODY);
  });

  it('neither writes through nor reads a code-cache directory that is a symbolic link', () => {
    const { home, dir } = setUp();
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(join(dir, '..'), { recursive: true });
    symlinkSync(elsewhere, dir);
    help(home);
    help(home); // finds nothing of its own either, and still runs
    expect(lstatSync(dir).isSymbolicLink()).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
