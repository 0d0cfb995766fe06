#!/usr/bin/env node
/**
 * Cold-start cost of the cache's hit path (docs/design.md "Performance budgets": a `show`
 * answered from the cache within 1.3x of `node -e 0`), and what each way of loading cacache
 * would add to it.
 *
 * Builds, into a temp dir, with the settings of scripts/bundle.mjs (esbuild, one CommonJS
 * file each, cacache and proper-lockfile left as lazy require()s as vendor files would be):
 *
 *   hit (src/cache)     a whole `show`-from-cache in miniature: hash the key, derive the
 *                       cache key, read and verify the entry (src/cache/store-read.ts via
 *                       ResponseCache.get), print the record
 *   hit (cacache.get)   the same, reading through cacache's full API (bundled)
 *   hit (cacache get.js) the same, through cacache's lib/get.js alone (bundled)
 *
 * and times whole processes side by side (interleaved, medians, minimal environment), then
 * the in-process require() time of each candidate vendor file in fresh processes.
 *
 * `(node:crypto, one hash)` is the floor under any read of cacache's format: its bucket
 * paths and integrity checks are SHA hashes, and loading node:crypto is most of the cost.
 *
 * Usage: npm run build && node bench/cache-load.mjs [runs] [--node <path>]   (default 30 runs, 3 warm-ups)
 *        --node: the Node binary the measured processes run (the bench itself runs on this one)
 *        KEEP=1 leaves the built files and the store in place and prints where.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { npmcliFsShim } from '../scripts/bundle/npmcli-fs-shim.mjs';
import { interleaved, median, printVerdicts, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const runs = Number(argv[0] ?? process.env.RUNS ?? 30);
if (!Number.isInteger(runs) || runs < 1) {
  console.log('Usage: npm run build && node bench/cache-load.mjs [runs] [--node <path>]   (default 30 runs, 3 warm-ups)');
  process.exit(argv[0] === '--help' || argv[0] === '-h' ? 0 : 2);
}
const warmups = 3;
const work = mkdtempSync(join(tmpdir(), 'exercises-cache-load-'));
const dist = (path) => pathToFileURL(join(root, 'dist', path)).href;
/** A built module by file path, for esbuild (which resolves paths, not file: URLs). */
const distPath = (path) => join(root, 'dist', path);

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' };
/** What the CLI bundle leaves to vendor files, loaded only when reached. */
const external = ['cacache', 'cacache/*', 'proper-lockfile'];

async function bundle(name, contents, options = {}) {
  const outfile = join(work, `${name}.cjs`);
  await build({
    ...common,
    stdin: { contents, resolveDir: root, sourcefile: contents.includes('import ') ? `${name}.mjs` : `${name}.cjs`, loader: 'js' },
    outfile,
    ...options,
  });
  return outfile;
}

// The store every hit reads: one full record, as `show` would have cached it.
const store = join(work, 'http');
const record = {
  id: 'Barbell_Bench_Press',
  name: 'Barbell Bench Press',
  category: 'STRENGTH',
  primaryMuscle: ['CHEST'],
  secondaryMuscle: ['TRICEPS', 'SHOULDERS'],
  instructions: ['Lie on a flat bench.', 'Lower the bar to the chest.', 'Press it back up.'],
};
const conn = { origin: 'https://api.example.test', apiKey: 'bench-key', lang: 'en-GB' };
const { ResponseCache } = await import(dist('cache/response-cache.js'));
const { cacheKey } = await import(dist('cache/keys.js'));
const key = cacheKey({ ...conn, path: `/exercise/${record.id}`, query: { lang: conn.lang } });
await ResponseCache.open(store).put(key, record, { now: Date.now() });

/** The part every hit variant shares: the key from the connection, as the client would derive it. */
const keyPrelude = `
import { cacheKey } from ${JSON.stringify(distPath('cache/keys.js'))};
const conn = ${JSON.stringify(conn)};
const key = cacheKey({ ...conn, path: '/exercise/${record.id}', query: { lang: conn.lang } });
const print = (body) => process.stdout.write(JSON.stringify(body) + '\\n');`;

const hitOwn = await bundle(
  'hit-own',
  `${keyPrelude}
import { ResponseCache } from ${JSON.stringify(distPath('cache/response-cache.js'))};
ResponseCache.open(${JSON.stringify(store)}).get(key, { now: Date.now(), ttlMs: 86400000 }).then((r) => {
  if (r.status !== 'fresh') throw new Error('expected a hit, got ' + r.status);
  print(r.body);
});`,
  { external },
);
const hitCacache = await bundle(
  'hit-cacache',
  `${keyPrelude}
const cacache = require('cacache');
cacache.get(${JSON.stringify(store)}, key).then((r) => print(JSON.parse(r.data.toString('utf8'))));`,
);
const hitGetJs = await bundle(
  'hit-cacache-get',
  `${keyPrelude}
const get = require('cacache/lib/get.js');
get(${JSON.stringify(store)}, key).then((r) => print(JSON.parse(r.data.toString('utf8'))));`,
);

// Candidate vendor files: what loading each costs on its own.
const vendors = [
  ['node:crypto (every variant needs it)', null, "require('node:crypto')"],
  ['ssri', await bundle('v-ssri', "module.exports = require('ssri');")],
  ['cacache/lib/get.js', await bundle('v-get', "module.exports = require('cacache/lib/get.js');")],
  ['cacache (whole API)', await bundle('v-full', "module.exports = require('cacache');")],
  ['cacache (whole API, @npmcli/fs shim)', await bundle('v-full-shim', "module.exports = require('cacache');", { plugins: [npmcliFsShim] })],
  [
    'cacache put.js + entry-index.js',
    await bundle('v-write', "module.exports = { put: require('cacache/lib/put.js'), index: require('cacache/lib/entry-index.js') };"),
  ],
  [
    'cacache put.js + entry-index.js, shim',
    await bundle('v-write-shim', "module.exports = { put: require('cacache/lib/put.js'), index: require('cacache/lib/entry-index.js') };", {
      plugins: [npmcliFsShim],
    }),
  ],
  ['proper-lockfile', await bundle('v-lock', "module.exports = require('proper-lockfile');")],
  [
    'proper-lockfile, graceful-fs → node:fs',
    await bundle('v-lock-fs', "module.exports = require('proper-lockfile');", { alias: { 'graceful-fs': 'node:fs' } }),
  ],
  ['cacache, unbundled (node_modules)', null, `require(${JSON.stringify(join(root, 'node_modules', 'cacache'))})`],
];

const env = { PATH: process.env.PATH ?? '', HOME: work };
try {
  // Each hit must print the record before it is timed.
  for (const file of [hitOwn, hitCacache, hitGetJs]) {
    const out = spawnSync(node, [file], { env, encoding: 'utf8' });
    if (out.status !== 0 || JSON.parse(out.stdout).id !== record.id) throw new Error(`${file} failed: ${out.stderr}`);
  }
  const cases = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: '(node:crypto, one hash)', args: ['-e', "require('node:crypto').createHash('sha256').update('x').digest('hex')"] },
    { name: 'hit (src/cache)', args: [hitOwn], target: 1.3 },
    { name: 'hit (cacache get.js)', args: [hitGetJs] },
    { name: 'hit (cacache.get)', args: [hitCacache] },
  ];
  const samples = await interleaved(cases, { runs, warmups, env, node });
  console.log(`cache hit in a fresh process, median of ${runs} runs each (interleaved), node ${nodeVersion}\n`);
  printVerdicts(cases, samples, { nameWidth: 24, extra: { title: '+ms', cell: (m) => `+${(m - median(samples[0])).toFixed(1)}` } });

  console.log(`\nrequire() time inside a fresh process, median of ${runs} processes each\n`);
  const timer = (load) => `const t = process.hrtime.bigint(); ${load}; process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));`;
  const times = vendors.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [j, [, file, load]] of vendors.entries()) {
      const out = spawnSync(node, ['-e', timer(load ?? `require(${JSON.stringify(file)})`)], { env, encoding: 'utf8' });
      if (out.status !== 0) throw new Error(out.stderr);
      times[j].push(Number(out.stdout));
    }
  }
  for (const [j, [name]] of vendors.entries()) console.log(`${name.padEnd(42)}${median(times[j]).toFixed(1).padStart(7)} ms`);
} finally {
  if (process.env.KEEP) console.log(work);
  else rmSync(work, { recursive: true, force: true });
}
