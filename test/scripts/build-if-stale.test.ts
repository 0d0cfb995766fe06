/**
 * `npm test`'s pretest (scripts/build-if-stale.mjs) builds only when an output is missing or an
 * input is newer than the oldest output, as make would: checked on a project of its own.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDirsPerTest } from '../helpers/temp.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/build-if-stale.mjs', import.meta.url));
const OUTPUTS = ['dist/cli.js', 'dist/bundle/cli.cjs', 'dist/bundle/complete.cjs', 'dist/completion.json', 'dist/help/exercises.txt', 'man/exercises.1'];
const temp = tempDirsPerTest('build-stale-');

/** A project whose every file is dated `at` (seconds since the epoch). */
function project(at: number): string {
  const root = temp();
  for (const file of ['src/cli.ts', 'scripts/bundle.mjs', 'package.json', 'tsconfig.json', ...OUTPUTS]) touch(root, file, at);
  return root;
}

function touch(root: string, file: string, at: number): void {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  utimesSync(path, at, at);
}

const check = (root: string) => execFileSync(process.execPath, [SCRIPT, '--dry-run', root], { encoding: 'utf8' }).trim();

describe('pretest builds only what is stale', () => {
  it('outputs newer than every input: up to date', () => {
    const root = project(1_000);
    touch(root, 'dist/cli.js', 2_000);
    expect(check(root)).toBe('build: up to date');
  });

  it('a source newer than the oldest output: stale, naming both', () => {
    const root = project(1_000);
    touch(root, 'src/commands/show.ts', 1_500);
    expect(check(root)).toMatch(/^build: stale \(src\/commands\/show\.ts is newer than (dist|man)\/.+\)$/);
  });

  it('dependencies installed since (npm install): stale', () => {
    const root = project(1_000);
    touch(root, 'node_modules/.package-lock.json', 1_500);
    expect(check(root)).toMatch(/^build: stale \(node_modules\/\.package-lock\.json is newer than (dist|man)\/.+\)$/);
  });

  it('an output missing: stale, naming it', () => {
    const root = project(1_000);
    rmSync(join(root, 'man'), { recursive: true });
    expect(check(root)).toBe('build: stale (man/exercises.1 is missing)');
  });
});
