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
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'exercises.js');
const runs = Number(process.argv[2] ?? process.env.RUNS ?? 30);
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

/** Wall time of one child process, in ms; the parent stays free to serve the requests. */
function time(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve(ms);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  const samples = cases.map(() => []);
  for (let i = 0; i < warmups + runs; i++) {
    for (const [j, c] of cases.entries()) {
      const ms = await time(c.args);
      if (i >= warmups) samples[j].push(ms);
    }
  }
  const base = median(samples[0]);
  console.log(`start-up, median of ${runs} runs each (interleaved), node ${process.version}\n`);
  console.log(`${'command'.padEnd(24)}${'median ms'.padStart(10)}${'ratio'.padStart(8)}${'target'.padStart(9)}  verdict`);
  let failed = false;
  for (const [j, c] of cases.entries()) {
    const m = median(samples[j]);
    const ratio = m / base;
    const verdict = c.target === undefined ? '' : ratio <= c.target ? 'ok' : 'OVER';
    if (verdict === 'OVER') failed = true;
    console.log(`${c.name.padEnd(24)}${m.toFixed(1).padStart(10)}${`${ratio.toFixed(2)}x`.padStart(8)}${(c.target ? `≤${c.target}x` : '').padStart(9)}  ${verdict}`);
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.close();
}
