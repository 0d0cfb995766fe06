#!/usr/bin/env node
/**
 * Paging benchmark (DESIGN.md "Performance budgets": `ids --all` over a large catalogue
 * within 1.15x of a bare undici keep-alive loop).
 *
 * Builds a large catalogue in a temp dir (the public-domain catalogue from ../shared when
 * present, else the sample, repeated with numbered ids and names up to --size records),
 * serves it with the project's catalogue server on 127.0.0.1, then times whole processes
 * side by side, interleaved, with stdout on /dev/null:
 *
 *   exercises ids --all --limit 25 --format jsonl     (the built CLI, bin/exercises.js)
 *   node bench/paging-baseline.mjs                    (undici request() + keep-alive Agent)
 *
 * and prints medians and the ratio against the 1.15x target. Both outputs are checked to
 * hold the same number of lines before timing.
 *
 * Usage: npm run build && node bench/paging.mjs [--runs 7] [--size 20000] [--limit 25]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, size: { type: 'string', default: '20000' }, limit: { type: 'string', default: '25' } },
});
const runs = Number(flags.runs);
const size = Number(flags.size);
const limit = Number(flags.limit);
const warmups = 1;
const TARGET = 1.15;

/** Records to repeat: the public-domain catalogue when present (never copied into the project), else the sample. */
function seedRecords() {
  const shared = join(root, '..', 'shared', 'catalogues', 'public-domain', 'exercises.jsonl');
  const file = existsSync(shared) ? shared : join(root, 'sample', 'exercises.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  return { from: file, records: lines.map((l) => JSON.parse(l)) };
}

/** `size` records: copy n of a seed gets `_n` on its id and ` n` on its name (and display name). */
function writeCatalogue(dir) {
  const { from, records } = seedRecords();
  const out = [];
  for (let i = 0; i < size; i++) {
    const seed = records[i % records.length];
    const n = Math.floor(i / records.length);
    const copy = n === 0 ? seed : { ...seed, id: `${seed.id}_${n}`, name: `${seed.name} ${n}`, ...(seed.displayName ? { displayName: `${seed.displayName} ${n}` } : {}) };
    out.push(JSON.stringify(copy));
  }
  writeFileSync(join(dir, 'exercises.jsonl'), `${out.join('\n')}\n`);
  return from;
}

const work = mkdtempSync(join(tmpdir(), 'exercises-paging-'));
const catalogueDir = join(work, 'catalogue');
const home = join(work, 'home');
for (const d of [catalogueDir, home]) mkdirSync(d);
const seededFrom = writeCatalogue(catalogueDir);

const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));
const server = await createCatalogueServer({ dir: catalogueDir, host: '127.0.0.1', port: 0 });
const apiKey = 'sandbox-premium';
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };

const cases = [
  { name: 'undici keep-alive loop', args: [join(root, 'bench', 'paging-baseline.mjs'), server.url, apiKey, String(limit)] },
  {
    name: 'exercises ids --all',
    args: [join(root, 'bin', 'exercises.js'), 'ids', '--all', '--limit', String(limit), '--format', 'jsonl', '--base-url', server.url, '--api-key', apiKey],
    target: TARGET,
  },
];

/** Runs one case; resolves with wall ms (and the output's line count when asked). */
function run(args, { countLines = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', countLines ? 'pipe' : 'ignore', 'pipe'] });
    let err = '';
    let lines = 0;
    child.stderr.on('data', (b) => (err += b));
    child.stdout?.on('data', (b) => {
      for (const byte of b) if (byte === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ ms, lines });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

try {
  // Same work on both sides, or the comparison means nothing.
  const counts = [];
  for (const c of cases) counts.push((await run(c.args, { countLines: true })).lines);
  if (counts.some((n) => n !== size)) throw new Error(`expected ${size} lines from each, got ${counts.join(' and ')}`);

  const samples = cases.map(() => []);
  for (let i = 0; i < warmups + runs; i++) {
    // Alternate which goes first, so neither always runs on a warmer machine.
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const j of order) {
      const { ms } = await run(cases[j].args);
      if (i >= warmups) samples[j].push(ms);
    }
  }
  const base = median(samples[0]);
  const pages = Math.ceil(size / limit);
  console.log(`paging: ${size} exercises, --limit ${limit} (${pages} requests), median of ${runs} runs each (interleaved), node ${process.version}`);
  console.log(`catalogue: ${seededFrom} repeated\n`);
  console.log(`${'command'.padEnd(26)}${'median ms'.padStart(10)}${'µs/page'.padStart(9)}${'ratio'.padStart(8)}${'target'.padStart(9)}  verdict`);
  let failed = false;
  for (const [j, c] of cases.entries()) {
    const m = median(samples[j]);
    const ratio = m / base;
    const verdict = c.target === undefined ? '' : ratio <= c.target ? 'ok' : 'OVER';
    if (verdict === 'OVER') failed = true;
    console.log(
      `${c.name.padEnd(26)}${m.toFixed(1).padStart(10)}${((m * 1000) / pages).toFixed(0).padStart(9)}${`${ratio.toFixed(2)}x`.padStart(8)}${(c.target ? `≤${c.target}x` : '').padStart(9)}  ${verdict}`,
    );
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
