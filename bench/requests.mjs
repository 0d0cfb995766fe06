#!/usr/bin/env node
/**
 * Requests spent by a week of ordinary use (issue 9, docs/design.md "Cache and requests"): a fixed
 * workload run twice against the project's catalogue server (in this process, on loopback),
 * counting the requests the server saw in each pass and timing each. The goal for the second
 * pass is 0 requests: JSON answers come from the response cache, media are skip-existing.
 *
 * The workload: query by muscle, show three records, the same query again, one record in
 * de-DE, `ids --all`, download the chest media.
 *
 * Usage: npm run build && node bench/requests.mjs [--node <path>]   (--node: the Node binary the CLI runs)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { minimalEnv, takeNodeOption, weekWorkload } from './lib.mjs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { node, nodeVersion } = takeNodeOption(process.argv.slice(2));
const cli = join(root, 'bin', 'exercises.js');
const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));
const { sampleCatalogueDir } = await import(join(root, 'dist', 'server', 'sandbox.js'));
const server = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });

const home = mkdtempSync(join(tmpdir(), 'exercises-requests-'));
const media = join(home, 'media');
const env = minimalEnv(home, { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'sandbox-premium' });

const WORKLOAD = weekWorkload(media);

const run = promisify(execFile);

async function pass() {
  const before = server.requests.length;
  const started = process.hrtime.bigint();
  for (const args of WORKLOAD) await run(node, [cli, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const seen = server.requests.slice(before);
  return { requests: seen.length, json: seen.filter((r) => r.path.startsWith('/exercise')).length, ms };
}

try {
  const first = await pass();
  const second = await pass();
  const quota = JSON.parse((await run(node, [cli, 'quota', '--json'], { env })).stdout);
  console.log(`weekly workload (${WORKLOAD.length} commands), against the project's server, node ${nodeVersion}\n`);
  console.log('pass     requests  (JSON + media)     time');
  for (const [name, p] of [
    ['first', first],
    ['second', second],
  ]) {
    console.log(`${name.padEnd(8)} ${String(p.requests).padStart(8)}  (${p.json} + ${p.requests - p.json})`.padEnd(35) + `${Math.round(p.ms)} ms`.padStart(8));
  }
  console.log(`\nledger (exercises quota): ${quota.requests} requests in ${quota.month}`);
  process.exitCode = second.requests === 0 && quota.requests === first.requests + second.requests ? 0 : 1;
} finally {
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
