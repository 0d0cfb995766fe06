#!/usr/bin/env node
/**
 * Five people behind one proxy (issue 18, DESIGN.md "Performance budgets": five people behind
 * one proxy cost what one costs). The project's catalogue server is the upstream (in this
 * process, counting its requests); `exercises serve --upstream` runs as a child process in
 * front of it; five users, each with a key of the proxy and a home (CLI cache) of their own,
 * run the week workload of bench/requests.mjs through it at the same time.
 *
 * Prints the upstream requests (the goal: what one user's first pass costs alone), the p50/p99
 * latency of the proxy's hits (from its access log: the time the proxy took, not the CLI's), and
 * the proxy's peak RSS (VmHWM, Linux).
 *
 * Usage: npm run build && node bench/team.mjs [--node <path>]   (--node: the Node binary the CLI runs)
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listeningUrl, minimalEnv, takeNodeOption, weekWorkload } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { node, nodeVersion } = takeNodeOption(process.argv.slice(2));
const cli = join(root, 'bin', 'exercises.js');
const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));
const { sampleCatalogueDir } = await import(join(root, 'dist', 'server', 'sandbox.js'));
const upstream = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });
const run = promisify(execFile);

const USERS = 5;

const work = mkdtempSync(join(tmpdir(), 'exercises-team-'));
let proxy;
try {
  // What one user's first pass costs with no proxy: the figure five users behind one proxy should match.
  const soloHome = join(work, 'solo');
  const soloEnv = minimalEnv(soloHome, { EXERCISES_BASE_URL: upstream.url, EXERCISES_API_KEY: 'sandbox-premium' });
  const soloStart = upstream.requests.length;
  for (const args of weekWorkload(join(soloHome, 'media'))) await run(node, [cli, ...args], { env: soloEnv, maxBuffer: 64 << 20 });
  const solo = upstream.requests.length - soloStart;

  const proxyHome = join(work, 'proxy');
  const keys = Array.from({ length: USERS }, (_, i) => ['--key', `user${i + 1}-key:premium`]).flat();
  proxy = spawn(node, [cli, 'serve', '--upstream', upstream.url, '--port', '0', ...keys, join(proxyHome, 'mirror')], {
    env: minimalEnv(proxyHome, { EXERCISES_UPSTREAM_KEY: 'sandbox-premium' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proxy.stderr.on('data', (b) => (log += b));
  const url = await listeningUrl(proxy, () => log);

  let peakKb = 0;
  const sampler = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proxy.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      // not Linux, or gone
    }
  }, 100);

  const before = upstream.requests.length;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: USERS }, async (_, i) => {
      const home = join(work, `user${i + 1}`);
      const env = minimalEnv(home, { EXERCISES_BASE_URL: url, EXERCISES_API_KEY: `user${i + 1}-key` });
      for (const args of weekWorkload(join(home, 'media'))) await run(node, [cli, ...args], { env, maxBuffer: 64 << 20 });
    }),
  );
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const upstreamRequests = upstream.requests.length - before;
  clearInterval(sampler);

  const lines = log.split('\n').filter((l) => /^[0-9a-f]{8} GET /.test(l));
  const outcome = (kind) => lines.filter((l) => l.split(' ')[4] === kind);
  const hitMs = outcome('hit')
    .map((l) => Number(/ ([\d.]+)ms$/.exec(l)[1]))
    .sort((a, b) => a - b);
  const pct = (p) => (hitMs.length ? hitMs[Math.min(hitMs.length - 1, Math.floor((p / 100) * hitMs.length))] : NaN);

  console.log(`${USERS} users x the week workload (${weekWorkload('').length} commands) through one proxy, node ${nodeVersion}\n`);
  console.log(`one user alone, no proxy:   ${solo} upstream requests`);
  console.log(`${USERS} users through the proxy: ${upstreamRequests} upstream requests (${wallMs.toFixed(0)} ms wall)`);
  console.log(
    `proxy answers: ${lines.length} (hit ${outcome('hit').length}, miss ${outcome('miss').length}, coalesced ${outcome('coalesced').length}, revalidated ${outcome('revalidated').length}, stale ${outcome('stale').length})`,
  );
  console.log(`hit latency in the proxy: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms`);
  console.log(`proxy peak RSS: ${peakKb ? `${(peakKb / 1024).toFixed(1)} MB` : 'n/a (no /proc)'}`);
  process.exitCode = upstreamRequests === solo ? 0 : 1;
} finally {
  if (proxy && proxy.exitCode === null) {
    proxy.kill('SIGTERM');
    await new Promise((r) => proxy.once('exit', r));
  }
  await upstream.close();
  rmSync(work, { recursive: true, force: true });
}
