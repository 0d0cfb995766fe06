#!/usr/bin/env node
/**
 * Paging benchmark (docs/performance.md: `ids --all --no-cache` over a large catalogue within
 * 1.15x of a bare node:http keep-alive loop, `--refresh`, which also writes every page to the
 * response cache, within 1.3x).
 *
 * Builds a large catalogue in a temp dir (the public-domain catalogue from ../shared when
 * present, else the sample, repeated with numbered ids and names up to --size records),
 * serves it with the project's catalogue server on 127.0.0.1, then times whole processes
 * side by side, interleaved, with stdout on /dev/null, in a minimal environment:
 *
 *   node bench/bare-client.cjs undici page …           (undici as the CLI loads it, one keep-alive Agent)
 *   node bench/bare-client.cjs http page …             (node:http, one keep-alive Agent)
 *   exercises ids --all --limit 25 --format jsonl      (the built CLI, bin/exercises.js), with
 *     --refresh (every page from the server, written to the response cache: the content is
 *     there from the run before, each page adds an index line), --refresh into an emptied
 *     cache (a first run: every content file and directory made anew), --no-cache, and from
 *     the cache (every run after the first)
 *
 * and prints medians and the ratios against the targets (to the node:http loop). All outputs
 * are checked to hold the same number of lines before timing.
 *
 * Usage: npm run build && node bench/paging.mjs [--runs 7] [--size 20000] [--limit 25] [--node <path>] [--compare <dir>]
 *        (--node: the Node binary the measured processes run, e.g. one kept by .ci/run;
 *        --compare: another built checkout, e.g. main built in another folder, whose CLI cases
 *        run interleaved with these, marked [compare], sharing their cache directories)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { interleaved, printVerdicts, timeNode } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    size: { type: 'string', default: '20000' },
    limit: { type: 'string', default: '25' },
    node: { type: 'string' },
    compare: { type: 'string' },
  },
});
const runs = Number(flags.runs);
const size = Number(flags.size);
const limit = Number(flags.limit);
const warmups = 1;
const node = flags.node ?? process.execPath;
const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
/** Against the node:http loop, the plainest client Node has: --no-cache, and --refresh (every page also written to the cache). */
const TARGET = 1.15;
const REFRESH_TARGET = 1.3;

/** Records to repeat: the public-domain catalogue when present (never copied into the project), else the sample. */
function seedRecords() {
  const shared = join(root, '..', 'shared', 'catalogues', 'public-domain', 'exercises.jsonl');
  const file = existsSync(shared) ? shared : join(root, 'sample', 'exercises.jsonl');
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { from: file, records: lines.map((l) => JSON.parse(l)) };
}

/** `size` records: copy n of a seed gets `_n` on its id and ` n` on its name (and display name). */
function writeCatalogue(dir) {
  const { from, records } = seedRecords();
  const out = [];
  for (let i = 0; i < size; i++) {
    const seed = records[i % records.length];
    const n = Math.floor(i / records.length);
    const copy =
      n === 0 ? seed : { ...seed, id: `${seed.id}_${n}`, name: `${seed.name} ${n}`, ...(seed.displayName ? { displayName: `${seed.displayName} ${n}` } : {}) };
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
const homeEnv = (dir) => ({ PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), XDG_CACHE_HOME: join(dir, '.cache') });
const env = homeEnv(home);
/** The first-run case's own home, whose cache is emptied before each of its runs. */
const firstHome = join(work, 'first-run-home');
mkdirSync(firstHome);

const bare = join(root, 'bench', 'bare-client.cjs');
/** `exercises ids --all` over the whole catalogue as JSON lines, with `flags`. */
const idsAll = (from, ...flags) => [
  join(from, 'bin', 'exercises.js'),
  'ids',
  '--all',
  ...flags,
  '--limit',
  String(limit),
  '--format',
  'jsonl',
  '--base-url',
  server.url,
  '--api-key',
  apiKey,
];
/** The CLI's cases for the build in `from` (this tree, or --compare's), names ending in `tag`. */
const cliCases = (from, tag) => [
  {
    // --refresh: every page fetched from the server (and written to the response cache), as on
    // a first run; without it every run after the first is answered from the cache.
    name: `ids --all --refresh${tag}`,
    args: idsAll(from, '--refresh'),
    target: REFRESH_TARGET,
  },
  {
    // The same into an empty cache: a first run, every content file and directory made anew.
    name: `ids --all --refresh, empty cache${tag}`,
    args: idsAll(from, '--refresh'),
    env: homeEnv(firstHome),
    before: () => rmSync(join(firstHome, '.cache'), { recursive: true, force: true }),
    target: REFRESH_TARGET,
  },
  {
    name: `ids --all --no-cache${tag}`,
    args: idsAll(from, '--no-cache'),
    target: TARGET,
  },
  {
    name: `ids --all (cached)${tag}`,
    args: idsAll(from),
  },
];
const cases = [
  { name: 'node:http keep-alive loop', args: [bare, 'http', 'page', server.url, apiKey, String(limit)] },
  { name: 'undici keep-alive loop', args: [bare, 'undici', 'page', server.url, apiKey, String(limit)] },
  ...cliCases(root, ''),
  ...(flags.compare ? cliCases(flags.compare, ' [compare]') : []),
];

try {
  // Same work on both sides, or the comparison means nothing.
  const counts = [];
  for (const c of cases) counts.push((await timeNode(c.args, c.env ?? env, { countLines: true, node })).lines);
  if (counts.some((n) => n !== size)) throw new Error(`expected ${size} lines from each, got ${counts.join(' and ')}`);

  const samples = await interleaved(cases, { runs, warmups, env, node });
  const pages = Math.ceil(size / limit);
  console.log(`paging: ${size} exercises, --limit ${limit} (${pages} requests), median of ${runs} runs each (interleaved), node ${nodeVersion}`);
  console.log(`catalogue: ${seededFrom} repeated\n`);
  const failed = !printVerdicts(cases, samples, { nameWidth: 34, extra: { title: 'µs/page', cell: (m) => ((m * 1000) / pages).toFixed(0) } });
  process.exitCode = failed ? 1 : 0;
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
