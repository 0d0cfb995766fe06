#!/usr/bin/env node
/**
 * Start-up benchmark (docs/design.md "Performance budgets"): `node -e 0`, `exercises --version`,
 * `exercises --help`, one `exercises show` against a loopback catalogue server, and two bare
 * scripts doing the same GET (bench/bare-client.cjs): over node:http, and over undici loaded
 * the way the CLI loads it (the bundled vendor file, V8's --liftoff-only). Run side by side
 * (interleaved, so drift hits all alike) in a minimal environment (PATH, HOME, XDG dirs:
 * NODE_EXTRA_CA_CERTS and the like slow Node's start and hide every ratio), reporting
 * medians and the targets: --version and --help ≤ 1.3x `node -e 0`, show ≤ 1.25x the bare
 * undici GET (with --refresh, so every run sends the request and rewrites the cache entry),
 * and `show` answered from the response cache ≤ 1.3x `node -e 0` (no HTTP code loaded).
 *
 * Usage: npm run build && node bench/startup.mjs [runs]   (default 30 runs each, 3 warm-ups)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, minimalEnv, printVerdicts } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'exercises.js');
const runs = Number(process.argv[2] ?? process.env.RUNS ?? 30);
if (!Number.isInteger(runs) || runs < 1) {
  console.log('Usage: npm run build && node bench/startup.mjs [runs]   (default 30 runs each, 3 warm-ups)');
  process.exit(process.argv[2] === '--help' || process.argv[2] === '-h' ? 0 : 2);
}
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
  await promisify(execFile)(process.execPath, [cli, 'show', CACHED_ID, '--format', 'json'], { env });
}

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'exercises --version', args: [cli, '--version'], target: 1.3 },
  { name: 'exercises --help', args: [cli, '--help'], target: 1.3 },
  // The floor any `show` stands on: the same GET, JSON parsed and printed, nothing else.
  { name: 'bare node:http GET', args: [bare, 'http', 'get', server.url, env.EXERCISES_API_KEY, ID] },
  { name: 'bare undici GET', args: [bare, 'undici', 'get', server.url, env.EXERCISES_API_KEY, ID] },
  { name: 'exercises show <id>', args: [cli, '--refresh', 'show', ID, '--format', 'json'], target: 1.25, against: 'bare undici GET' },
  { name: 'show (cache hit)', args: [cli, 'show', CACHED_ID, '--format', 'json'], target: 1.3 },
];

try {
  const samples = await interleaved(cases, { runs, warmups, env });
  console.log(`start-up, median of ${runs} runs each (interleaved), node ${process.version}\n`);
  const failed = !printVerdicts(cases, samples, { nameWidth: 22 });
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.close();
}
