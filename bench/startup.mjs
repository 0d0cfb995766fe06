#!/usr/bin/env node
/**
 * Start-up benchmark (DESIGN.md "Performance budgets"): `node -e 0`, `exercises --version`,
 * `exercises --help` and one `exercises show` against a loopback catalogue server, run side
 * by side (interleaved, so drift hits all alike), reporting medians and ratios to `node -e 0`
 * against the targets (--version ≤ 1.3x, show ≤ 1.6x). A bare node:http GET of the same
 * record is timed too, as the floor any `show` stands on.
 *
 * Usage: npm run build && node bench/startup.mjs [runs]   (default 30 runs each, 3 warm-ups)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleaved, printVerdicts } from './lib.mjs';

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
const env = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
  EXERCISES_BASE_URL: server.url,
  EXERCISES_API_KEY: 'sandbox-premium',
};

/**
 * Reference, not a target: the least a `show` can do — load node:http, one keep-alive GET,
 * parse and print the JSON. What `show` costs above this line is the CLI's own.
 */
const BARE_GET = `const http = require('node:http');
const agent = new http.Agent({ keepAlive: true });
const url = process.env.EXERCISES_BASE_URL + '/exercise/Barbell_Bench_Press';
http.get(url, { agent, headers: { 'x-api-key': process.env.EXERCISES_API_KEY } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk) => (body += chunk));
  res.on('end', () => { process.stdout.write(JSON.stringify(JSON.parse(body)) + '\\n'); agent.destroy(); });
});`;

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: '(bare http.get)', args: ['-e', BARE_GET] },
  { name: 'exercises --version', args: [cli, '--version'], target: 1.3 },
  { name: 'exercises --help', args: [cli, '--help'] },
  { name: 'exercises show <id>', args: [cli, 'show', 'Barbell_Bench_Press', '--format', 'json'], target: 1.6 },
];

try {
  const samples = await interleaved(cases, { runs, warmups, env });
  console.log(`start-up, median of ${runs} runs each (interleaved), node ${process.version}\n`);
  const failed = !printVerdicts(cases, samples, { nameWidth: 24 });
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.close();
}
