#!/usr/bin/env node
/**
 * Start-up benchmark (docs/design.md "Performance budgets"): `node -e 0`, `exercises --version`,
 * `exercises --help`, one `exercises show` against a loopback catalogue server, and two bare
 * scripts doing the same GET (bench/bare-client.cjs): over node:http, and over undici loaded
 * the way the CLI loads it (the launcher's engine options, the bundled vendor file). Run side by
 * side (interleaved, so drift hits all alike) in a minimal environment (PATH, HOME, XDG dirs:
 * NODE_EXTRA_CA_CERTS and the like slow Node's start and hide every ratio), reporting
 * medians and the budgets (docs/performance.md): --version and --help ≤ 1.5x `node -e 0`;
 * a network `show` (`--no-cache`, and `--refresh`: every run sends the request and rewrites
 * the cache entry) ≤ 2.5x the bare node:http GET; `show` answered from the response cache
 * ≤ 2.5x `node -e 0` (no HTTP code loaded); `--catalogue <sample> show` (answered in-process)
 * ≤ 1.6x `node -e 0`.
 *
 * --node <path> runs every case with another Node binary (the bench itself and its server run
 * on this one), e.g. one from `.ci/run`'s cache; the version measured is printed first.
 * --compare <dir> also runs `--help`, the cache hit and `show --no-cache` of another built
 * checkout (a git worktree of an earlier commit), interleaved with these, each with its own HOME.
 *
 * Usage: npm run build && node bench/startup.mjs [runs] [--node <path>] [--compare <dir>]
 *        (default 30 runs each, 3 warm-ups)
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, minimalEnv, printVerdicts, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'exercises.js');
const USAGE = 'Usage: npm run build && node bench/startup.mjs [runs] [--node <path>]   (default 30 runs each, 3 warm-ups)';
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const compareAt = argv.indexOf('--compare');
const compare = compareAt >= 0 ? argv.splice(compareAt, 2)[1] : undefined;
const runs = Number(argv[0] ?? process.env.RUNS ?? 30);
if (!Number.isInteger(runs) || runs < 1) {
  console.log(USAGE);
  process.exit(argv[0] === '--help' || argv[0] === '-h' ? 0 : 2);
}
console.log(`node ${nodeVersion} (${node})`);

const warmups = 3;

const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));
const { sampleCatalogueDir } = await import(join(root, 'dist', 'server', 'sandbox.js'));
const server = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });

const home = mkdtempSync(join(tmpdir(), 'exercises-bench-'));
const env = minimalEnv(home, { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'sandbox-premium' });

const bare = join(root, 'bench', 'bare-client.cjs');
const ID = 'Barbell_Bench_Press';

/** Answered from the response cache in the "cache hit" row: cached once before timing. */
const CACHED_ID = 'Push_Up';
{
  // Asynchronously: the server answering it lives in this process.
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  await promisify(execFile)(node, [cli, 'show', CACHED_ID, '--format', 'json'], { env });
  if (compare !== undefined) {
    const otherEnv = minimalEnv(join(home, 'compare'), { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'sandbox-premium' });
    await promisify(execFile)(node, [join(compare, 'bin', 'exercises.js'), 'show', CACHED_ID, '--format', 'json'], { env: otherEnv });
  }
}

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'exercises --version', args: [cli, '--version'], target: 1.5 },
  { name: 'exercises --help', args: [cli, '--help'], target: 1.5 },
  // The floor any `show` stands on: the same GET, JSON parsed and printed, nothing else.
  { name: 'bare node:http GET', args: [bare, 'http', 'get', server.url, env.EXERCISES_API_KEY, ID] },
  { name: 'bare undici GET', args: [bare, 'undici', 'get', server.url, env.EXERCISES_API_KEY, ID] },
  { name: 'show <id> --no-cache', args: [cli, '--no-cache', 'show', ID, '--format', 'json'], target: 2.5, against: 'bare node:http GET' },
  { name: 'show <id> --refresh', args: [cli, '--refresh', 'show', ID, '--format', 'json'], target: 2.5, against: 'bare node:http GET' },
  { name: 'show (cache hit)', args: [cli, 'show', CACHED_ID, '--format', 'json'], target: 2.5 },
  // A local catalogue directory, answered in-process (no server, no HTTP client).
  { name: '--catalogue show <id>', args: [cli, '--catalogue', sampleCatalogueDir(), 'show', ID, '--format', 'json'], target: 1.6 },
];
// The 873 public-domain exercises, when ../shared has them (never copied into the project).
const publicDomain = join(root, '..', 'shared', 'catalogues', 'public-domain');
if (existsSync(join(publicDomain, 'exercises.jsonl'))) {
  cases.push({ name: '--catalogue (873) show', args: [cli, '--catalogue', publicDomain, 'show', 'Pushups', '--format', 'json'], target: 1.6 });
}

if (compare !== undefined) {
  const other = join(compare, 'bin', 'exercises.js');
  const otherEnv = minimalEnv(join(home, 'compare'), { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'sandbox-premium' });
  cases.push(
    { name: '--compare: --help', args: [other, '--help'], env: otherEnv },
    { name: '--compare: no-cache', args: [other, '--no-cache', 'show', ID, '--format', 'json'], env: otherEnv },
    { name: '--compare: cache hit', args: [other, 'show', CACHED_ID, '--format', 'json'], env: otherEnv },
  );
}

// Output into a pipe, as `exercises … | less` writes it (and /dev/null would spare the CLI the pipe's cost).
for (const c of cases) c.pipe = true;

try {
  const samples = await interleaved(cases, { runs, warmups, env, node });
  console.log(`start-up, median of ${runs} runs each (interleaved), node ${nodeVersion}\n`);
  const failed = !printVerdicts(cases, samples, { nameWidth: 22 });
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
