#!/usr/bin/env node
/**
 * How far one request travels through our code (issue 27's "files a `show` runs"): runs the
 * plain tsc output's main() (dist/cli.js, not the bundle, so each of our modules is a file of
 * its own) under NODE_V8_COVERAGE for
 *
 *   - a `show <id>` cache miss against our own catalogue server on 127.0.0.1 (ephemeral port),
 *   - the same `show` again, answered from the response cache (a cache hit),
 *
 * each in a child with a private HOME and XDG dirs and a minimal environment (bench/lib.mjs
 * minimalEnv), and counts our files (dist/**) in which at least one NAMED function ran (call
 * count > 0): a module whose top level alone ran (it was imported, nothing in it was called)
 * does not count.
 *
 * Usage: npm run build && node bench/module-count.mjs [--list] [--node <path>]
 *   --list   also prints the files that ran, by folder under dist/
 *   --node   runs the measured children with another Node binary
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { minimalEnv, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const listAt = argv.indexOf('--list');
const list = listAt >= 0 && argv.splice(listAt, 1).length === 1;
if (argv.length > 0) {
  console.log('Usage: npm run build && node bench/module-count.mjs [--list] [--node <path>]');
  process.exit(argv[0] === '--help' || argv[0] === '-h' ? 0 : 2);
}

const ID = 'Barbell_Bench_Press';

/** The child: imports the tsc output's main() and runs one command line with it, as bin/exercises.js would without a bundle. */
const RUN_MAIN = `const { main } = await import(process.argv[1]);
await main([process.execPath, 'exercises', ...process.argv.slice(2)]);`;

/** Our files (paths under dist/) in which a named function ran, read from the coverage files in `dir`. */
function filesThatRan(dir) {
  const ran = new Set();
  for (const name of readdirSync(dir)) {
    const { result } = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    for (const script of result) {
      if (!script.url.startsWith('file:')) continue;
      const file = fileURLToPath(script.url);
      if (!file.startsWith(dist + '/')) continue;
      // ranges[0] covers the whole function; its count is how many times it was called.
      if (script.functions.some((f) => f.functionName !== '' && f.ranges[0].count > 0)) ran.add(relative(dist, file));
    }
  }
  return [...ran].sort();
}

/** Runs `exercises <args>` through dist/cli.js's main() under coverage with `env`; gives the files that ran. */
async function measure(args, env) {
  const coverage = mkdtempSync(join(tmpdir(), 'exercises-coverage-'));
  try {
    await promisify(execFile)(node, ['--input-type=module', '-e', RUN_MAIN, pathToFileURL(join(dist, 'cli.js')).href, ...args], {
      env: { ...env, NODE_V8_COVERAGE: coverage },
    });
    return filesThatRan(coverage);
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}

/** Prints `files` grouped by their folder under dist/ (`.` for dist/ itself). */
function printByFolder(files) {
  const byFolder = new Map();
  for (const file of files) byFolder.set(dirname(file), [...(byFolder.get(dirname(file)) ?? []), file]);
  for (const [folder, inFolder] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${folder} (${inFolder.length}): ${inFolder.map((file) => relative(folder, file)).join(' ')}`);
  }
}

const { createCatalogueServer } = await import(join(dist, 'server', 'catalogue-server.js'));
const { sampleCatalogueDir } = await import(join(dist, 'server', 'sandbox.js'));
const server = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });
const home = mkdtempSync(join(tmpdir(), 'exercises-bench-'));
try {
  const env = minimalEnv(home, { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'sandbox-premium' });
  console.log(`node ${nodeVersion} (${node}): our files (dist/**) with a named function that ran`);
  // In this order: the first run fills the response cache the second one reads.
  for (const [name, args] of [
    ['show <id>, cache miss', ['show', ID]],
    ['show <id>, cache hit', ['show', ID]],
  ]) {
    const files = await measure(args, env);
    console.log(`${name.padEnd(24)}${String(files.length).padStart(4)}`);
    if (list) printByFolder(files);
  }
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
