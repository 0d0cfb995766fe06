/**
 * One temp root per run: made here before any test file runs, handed to the workers
 * (inject('tempRoot') in test/helpers/temp.ts, and TMPDIR, so even os.tmpdir() points
 * into it), and removed when the run ends. The teardown then fails the run, listing them,
 * if the OS temp dir holds entries it did not hold before: something escaped the root.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** Prefix of a run's root; another run's root, made while this one ran, is not a leak of ours. */
const ROOT_PREFIX = 'exercises-test-run-';
/** Set to `warn` to report leftovers without failing (a temp dir shared with other programs' runs). */
const WARN_ONLY = 'EXERCISES_TEST_TMP_CHECK';

export default function setup(project: TestProject): () => void {
  const osTemp = tmpdir();
  const before = new Set(readdirSync(osTemp));
  const root = mkdtempSync(join(osTemp, ROOT_PREFIX));
  project.provide('tempRoot', root);
  // Workers and everything they spawn with the inherited environment write under the root.
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;

  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    // vitest's own directory for transformed modules: it removes it itself, after this teardown.
    const vitestOwn = new Set(
      project.vitest.projects
        .map((p) => p.tmpDir)
        .filter((dir) => dirname(dir) === osTemp)
        .map((dir) => basename(dir)),
    );
    const left = readdirSync(osTemp).filter((name) => !before.has(name) && !name.startsWith(ROOT_PREFIX) && !vitestOwn.has(name));
    if (left.length > 0) {
      const shown = left
        .sort()
        .slice(0, 50)
        .map((name) => `  ${join(osTemp, name)}`);
      if (left.length > shown.length) shown.push(`  … and ${left.length - shown.length} more`);
      const message =
        `The test run left ${left.length} new entr${left.length === 1 ? 'y' : 'ies'} in ${osTemp} (everything belongs under the run's temp root, test/helpers/temp.ts):\n${shown.join('\n')}\n` +
        `If other programs wrote there during the run, run the suite with a TMPDIR of its own, or with ${WARN_ONLY}=warn.`;
      // A machine shared with other runs: report, but do not fail on what they made.
      if (process.env[WARN_ONLY] === 'warn') console.warn(`warning: ${message}`);
      else throw new Error(message);
    }
  };
}
