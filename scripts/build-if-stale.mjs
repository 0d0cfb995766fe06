#!/usr/bin/env node
/**
 * `npm test`'s pretest: runs the full build (`npm run build`) only when it is stale, as make
 * would with one rule: every output (dist/, man/) is compared with every input (src/,
 * scripts/, the tsconfigs, package.json and the installed dependencies), and the build runs
 * when an output is missing or the newest input is newer than the oldest output. Each build
 * step rewrites all of its outputs (tsc emits every file; the other steps empty their
 * directory first), so after a build the oldest output is no older than the build.
 * One rule and not one per step: the steps feed each other (tsc's dist/ is what bundle.mjs,
 * help-text.mjs, completion-data.mjs and man.mjs read), and a whole build costs ~20 s while
 * checking costs ~0.1 s. `prepare` and `.ci/run` still build in full, unconditionally.
 *
 * Usage: node scripts/build-if-stale.mjs [--dry-run] [root]
 *   --dry-run   only say whether the build is stale, and why (exit 0 either way)
 *   root        the project to check (default: this script's project)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads. A directory stands for every file under it. */
const INPUTS = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'node_modules/.package-lock.json'];
/** What the build writes: the directories, and files that must exist after it (a directory emptied by hand is stale). */
const OUTPUT_DIRS = ['dist', 'man'];
const OUTPUT_FILES = ['dist/cli.js', 'dist/bundle/cli.cjs', 'dist/bundle/complete.cjs', 'dist/completion.json', 'dist/help/exercises.txt', 'man/exercises.1'];

/** Every file under `path` (or `path` itself), with its modification time; nothing for a path that is not there. */
function files(path) {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [{ path, mtimeMs: stat.mtimeMs }];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => files(join(path, entry.name)));
}

/** Why the build at `root` is stale, or null when every output is newer than every input. */
export function staleReason(root) {
  const missing = OUTPUT_FILES.find((file) => !existsSync(join(root, file)));
  if (missing) return `${missing} is missing`;
  const outputs = OUTPUT_DIRS.flatMap((dir) => files(join(root, dir)));
  const oldest = outputs.reduce((a, b) => (b.mtimeMs < a.mtimeMs ? b : a));
  const newer = INPUTS.flatMap((input) => files(join(root, input))).find((input) => input.mtimeMs > oldest.mtimeMs);
  return newer ? `${relative(root, newer.path)} is newer than ${relative(root, oldest.path)}` : null;
}

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const root = args.find((a) => a !== '--dry-run') ?? fileURLToPath(new URL('..', import.meta.url));
const reason = staleReason(root);
if (reason === null) {
  console.log('build: up to date');
} else if (dryRun) {
  console.log(`build: stale (${reason})`);
} else {
  console.log(`build: stale (${reason}), building`);
  // From clean: a file tsc once emitted for a source since deleted would stay the oldest output, and the build stale for ever.
  for (const dir of OUTPUT_DIRS) rmSync(join(root, dir), { recursive: true, force: true });
  const npm = process.env.npm_execpath;
  // Under npm (pretest) its own CLI with this node; run by hand, the npm on PATH.
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
}
