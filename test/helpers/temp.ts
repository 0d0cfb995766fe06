/**
 * Every file and directory the suite makes lives under one temp root per run, which
 * test/setup/global.ts creates before the first test and removes after the last (and which
 * it checks nothing escaped). Helpers make their directories here; children the tests spawn
 * get TMPDIR pointing here too (run-cli.ts testEnv), so what they make is removed as well.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, inject } from 'vitest';
import { recordPrefix } from './temp-prefixes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's temp root (test/setup/global.ts). */
    tempRoot: string;
  }
}

/** The run's temp root: made by the global setup, removed at the end of the run. */
export function tempRoot(): string {
  const root = inject('tempRoot');
  if (!root) throw new Error('No temp root: the suite runs through vitest.config.ts (test/setup/global.ts makes it).');
  // The setup made it; a test that removed it by mistake should not break every later one.
  mkdirSync(root, { recursive: true });
  return root;
}

/** A new empty directory under the run's temp root; `prefix` says what it is for. */
export function tempDir(prefix = 'exercises-'): string {
  const root = tempRoot();
  // Noted, so the end-of-run check knows the name if such a directory ever appears outside the root.
  recordPrefix(root, prefix);
  return mkdtempSync(join(root, prefix));
}

/** A private config/cache home so tests never read or write the developer's real settings. */
export function isolatedHome(): string {
  return tempDir('exercises-home-');
}

/**
 * A maker of temp directories, each removed after the test that made it (call it where hooks
 * may be registered: in a describe block or at a file's top level). `prefix` may be given per
 * directory; else `defaultPrefix`.
 */
export function tempDirsPerTest(defaultPrefix: string): (prefix?: string) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix = defaultPrefix) => {
    const dir = tempDir(prefix);
    made.push(dir);
    return dir;
  };
}
