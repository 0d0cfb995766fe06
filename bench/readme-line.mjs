#!/usr/bin/env node
/**
 * The README's main-job line after `npm install`: `node bin/exercises.js --sandbox query --muscle
 * CHEST`, beside `node -e 0`, interleaved, medians, in a minimal environment (bench/lib.mjs). It
 * must take well under a second. (`npx exercises …`, which the README gave before, installs the
 * project's own package into npm's npx cache to link its bin: a copy of the checkout, built again
 * by its prepare script, and its dependencies from the registry; it is not measured here.)
 *
 * Usage: npm run build && node bench/readme-line.mjs [runs] [--node <path>]   (default 15 runs)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, minimalEnv, printVerdicts, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const runs = Number(argv[0] ?? 15);
console.log(`node ${nodeVersion} (${node})`);

const home = mkdtempSync(join(tmpdir(), 'exercises-bench-'));
const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'node bin/exercises.js …', args: [join(root, 'bin', 'exercises.js'), '--sandbox', 'query', '--muscle', 'CHEST'] },
];
try {
  printVerdicts(cases, await interleaved(cases, { runs, warmups: 2, env: minimalEnv(home), node }));
} finally {
  rmSync(home, { recursive: true, force: true });
}
