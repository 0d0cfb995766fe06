#!/usr/bin/env node
/**
 * Bulk download benchmark: `exercises download` against aria2c on the same files, from the
 * same loopback catalogue server, at the same concurrency, into the same kind of target.
 *
 *   npm run build && npm run bench:download    # 40 files (~850 MB) at concurrency 4, then one 1 GiB video
 *   node bench/download.mjs --runs 7 --target disk --disk-dir /work/tmp
 *   node bench/download.mjs --big-gb 0           # the bulk case only
 *   node bench/download.mjs --help
 *
 * What keeps the comparison fair and the figures steady:
 * - The source catalogue (valid MP4 heads + filler) lives on tmpfs (/dev/shm when present), so
 *   the server never waits on the disk; it is generated once and removed at the end.
 * - Each target is measured separately: `tmpfs` (no disk writeback at all: the transfer path
 *   alone) and `disk` (the OS temp directory unless --disk-dir; ext4 here; what a user sees).
 *   The file system type of each is printed beside it.
 * - Both tools run with a minimal environment (PATH, HOME and the XDG directories only).
 * - Before every timed run the previous output is removed and `sync` flushes its writeback, so
 *   no run pays for another's dirty pages. Dropping the page cache (`--drop-caches`, root only)
 *   is off by default: it also evicts node, the CLI bundle and aria2c, so every run would start
 *   cold from the disk, which measures the disk, not the download.
 * - The tools alternate A B B A …, so neither always runs first; one untimed warm-up run each.
 * - Medians over the runs; the wall-time ratio to aria2c (the budgets: WALL_BUDGET) of the medians and the median of the per-pair ratios
 *   (pairs are adjacent runs, so they saw the same machine state); CPU seconds (user + sys)
 *   and peak RSS from /usr/bin/time -v (or VmHWM sampling without it).
 *
 * Needs aria2c (Debian: `apt-get install aria2`); without it, only our figures are shown.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { minimalEnv } from './lib.mjs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(root, 'bin', 'exercises.js');
const KEY = 'sandbox-premium';
const TMPFS = '/dev/shm';

const HELP = `Usage: node bench/download.mjs [options]

  --files <n>          files in the bulk run (default 40)
  --min-mb <n>         smallest file, MiB (default 10: 40 files make ~850 MB)
  --max-mb <n>         largest file, MiB (default 32)
  --runs <n>           timed runs per tool and target (default 5)
  --warmup <n>         untimed runs per tool before timing (default 1)
  --concurrency <n>    parallel downloads for both tools (default 4)
  --target <t>         tmpfs | disk | both (default both); tmpfs is ${TMPFS}
  --disk-dir <dir>     where the disk target writes (default ${tmpdir()}; its file system type is shown)
  --big-gb <n>         also one file of this size at concurrency 1 (default 1; 0 skips it)
  --big-runs <n>       timed runs for the big file (default 3)
  --compare <dir>      also run \`exercises download\` from another built checkout (e.g. main built in another
                       folder), interleaved with ours, as the tool \`compare\`
  --tool <list>        comma-separated: ours, aria2c, pump-undici (default ours,aria2c; both = ours,aria2c).
                       pump-undici is bench/pump-undici.mjs: the same body pump and file sink fed by
                       undici's dispatch handler, no CLI around it (what the engine does on undici)
  --drop-caches        also drop the page cache before each run (root only; starts every tool cold)
  --node-args <args>   extra node flags for our runs, e.g. "--node-args=--cpu-prof --cpu-prof-dir=/tmp/prof"
  --memory             sample process.memoryUsage() in our runs every 20 ms (bench/memory-sampler.cjs) and
                       print the peaks of RSS, JS heap, array buffers and external memory, and the RSS at start
  --node <path>        the Node binary that runs our tools (default: this one, ${process.execPath})
  --markdown           also print the results as a Markdown table
  --keep               keep the generated catalogue
  -h, --help           this text`;

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '40' },
    'min-mb': { type: 'string', default: '10' },
    'max-mb': { type: 'string', default: '32' },
    runs: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '4' },
    target: { type: 'string', default: 'both' },
    'disk-dir': { type: 'string', default: tmpdir() },
    'big-gb': { type: 'string', default: '1' },
    'big-runs': { type: 'string', default: '3' },
    tool: { type: 'string', default: 'ours,aria2c' },
    'drop-caches': { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
    memory: { type: 'boolean', default: false },
    node: { type: 'string', default: process.execPath },
    compare: { type: 'string', default: '' },
    markdown: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const FILES = Number(args.files);
const MIN = Number(args['min-mb']) * 1024 * 1024;
const MAX = Number(args['max-mb']) * 1024 * 1024;
const RUNS = Math.max(1, Number(args.runs));
const WARMUP = Math.max(0, Number(args.warmup));
const CONCURRENCY = Number(args.concurrency);
const BIG = Number(args['big-gb']) * 1024 * 1024 * 1024;
const BIG_RUNS = Math.max(1, Number(args['big-runs']));
const NODE = args.node;
const SAMPLER = join(root, 'bench', 'memory-sampler.cjs');
const NODE_ARGS = [...args['node-args'].split(/\s+/).filter(Boolean), ...(args.memory ? ['--require', SAMPLER] : [])];
if (!['tmpfs', 'disk', 'both'].includes(args.target)) throw new Error('--target is tmpfs, disk or both');
const TOOL_NAMES = { ours: 'exercises download', compare: 'download [compare]', aria2c: 'aria2c', 'pump-undici': 'pump over undici' };
const wanted = args.tool === 'both' ? ['ours', 'aria2c'] : args.tool.split(',').map((t) => t.trim());
if (args.compare) {
  if (!existsSync(join(args.compare, 'bin', 'exercises.js'))) throw new Error(`--compare: no bin/exercises.js in ${args.compare}`);
  wanted.splice(wanted.indexOf('ours') + 1, 0, 'compare');
}
for (const t of wanted) if (!(t in TOOL_NAMES)) throw new Error(`--tool takes ${Object.keys(TOOL_NAMES).join(', ')}; not ${t}`);

if (!existsSync(join(root, 'dist', 'server', 'catalogue-server.js'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));

const hasTmpfs = existsSync(TMPFS);
const hasTimeV = spawnSync('/usr/bin/time', ['-v', 'true']).status === 0;
const hasAria = spawnSync('aria2c', ['--version']).status === 0;
const canDropCaches = args['drop-caches'] && process.getuid?.() === 0 && dropCaches();
const tools = wanted.filter((t) => t !== 'aria2c' || hasAria);
const targets = [];
if (args.target !== 'disk') {
  if (hasTmpfs) targets.push({ name: 'tmpfs', dir: TMPFS });
  else console.error(`no ${TMPFS}: skipping the tmpfs target`);
}
if (args.target !== 'tmpfs') targets.push({ name: 'disk', dir: args['disk-dir'] });
for (const t of targets) t.name = `${t.name} (${fsType(t.dir)})`;

/**
 * The children's whole environment: PATH, HOME and the XDG directories, nothing else. Variables
 * such as NODE_EXTRA_CA_CERTS (which alone makes `node -e 0` three times slower here) or
 * NODE_OPTIONS would otherwise slow one tool and not the other.
 */
const benchHome = mkdtempSync(join(tmpdir(), 'bench-home-'));
const CHILD_ENV = minimalEnv(benchHome);

/** The file system type of `dir` (ext4, tmpfs, …), as df reports it. */
function fsType(dir) {
  const r = spawnSync('df', ['--output=fstype', dir], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n').pop().trim() : 'unknown';
}

/** Flushes dirty pages and drops the clean page cache (root only); true when it worked. */
function dropCaches() {
  spawnSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1');
    return true;
  } catch {
    return false;
  }
}

/** Between runs: no writeback or cached output of one run may slow down (or speed up) the next. */
function settle() {
  if (canDropCaches) dropCaches();
  else spawnSync('sync');
}

const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
const FILLER = randomBytes(4 * 1024 * 1024);

/** Writes `size` bytes: an MP4 head, then filler, streamed (never the whole file in memory). */
async function writeMedia(path, size) {
  const out = createWriteStream(path);
  let left = size - MP4_HEAD.length;
  out.write(MP4_HEAD);
  while (left > 0) {
    const chunk = FILLER.subarray(0, Math.min(left, FILLER.length));
    left -= chunk.length;
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r, j) => out.end((e) => (e ? j(e) : r())));
}

/** A catalogue directory (on tmpfs when there is one) with one video per exercise. */
async function makeCatalogue(sizes, prefix) {
  const dir = mkdtempSync(join(hasTmpfs ? TMPFS : tmpdir(), `bench-${prefix}-`));
  const lines = [];
  for (let i = 0; i < sizes.length; i++) {
    const id = `${prefix}_${String(i).padStart(3, '0')}`;
    mkdirSync(join(dir, 'videos', id, 'premium'), { recursive: true });
    await writeMedia(join(dir, 'videos', id, 'premium', 'demo.mp4'), sizes[i]);
    lines.push(JSON.stringify({ id, name: `${prefix} ${i}`, premiumVideos: ['demo'] }));
  }
  writeFileSync(join(dir, 'exercises.jsonl'), `${lines.join('\n')}\n`);
  return { dir, ids: lines.map((l) => JSON.parse(l).id), bytes: sizes.reduce((a, b) => a + b, 0) };
}

/** Runs a command: wall seconds, CPU seconds (user + sys) and peak RSS (kB). */
function measure(cmd, argv, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const full = hasTimeV ? ['/usr/bin/time', ['-v', cmd, ...argv]] : [cmd, argv];
    const child = spawn(full[0], full[1], { env: { ...CHILD_ENV, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let hwm = 0;
    // Without /usr/bin/time, sample VmHWM of the child (the high-water mark survives between samples).
    const timer = hasTimeV
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwm = Math.max(hwm, Number(m[1]));
          } catch {}
        }, 20);
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const sys = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const cpu = user && sys ? Number(user[1]) + Number(sys[1]) : NaN;
      const sampled = /^memory-sampler (.*)$/m.exec(stderr);
      const memory = sampled ? JSON.parse(sampled[1]) : undefined;
      if (code !== 0) reject(new Error(`${cmd} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ seconds, cpu, rssKb: rss ? Number(rss[1]) : hwm, memory });
    });
  });
}

function runOurs(server, ids, out, concurrency, cli = cliPath) {
  return measure(
    NODE,
    [...NODE_ARGS, cli, '--base-url', server.url, '--quiet', 'download', ...ids, '--videos', '--dir', out, '--concurrency', String(concurrency)],
    { EXERCISES_API_KEY: KEY },
  );
}

function runPumpUndici(server, ids, out, concurrency) {
  const paths = ids.map((id) => `/videos/${id}/premium/demo.mp4`);
  return measure(NODE, [...NODE_ARGS, join(root, 'bench', 'pump-undici.mjs'), server.url, KEY, out, String(concurrency), ...paths], {});
}

const runCompare = (server, ids, out, concurrency) => runOurs(server, ids, out, concurrency, join(args.compare, 'bin', 'exercises.js'));

const RUNNERS = { ours: runOurs, compare: runCompare, aria2c: runAria, 'pump-undici': runPumpUndici };

function runAria(server, ids, out, concurrency) {
  const list = `${out}.aria-input.txt`;
  writeFileSync(list, ids.map((id) => `${server.url}/videos/${id}/premium/demo.mp4\n  out=${id}/demo.mp4`).join('\n') + '\n');
  return measure(
    'aria2c',
    [
      '--input-file',
      list,
      '--dir',
      out,
      '--max-concurrent-downloads',
      String(concurrency),
      '--split',
      '1',
      '--max-connection-per-server',
      '1',
      '--header',
      `X-API-Key: ${KEY}`,
      '--file-allocation',
      'none',
      '--allow-overwrite',
      'true',
      '--auto-file-renaming',
      'false',
      '--quiet',
      'true',
      '--console-log-level',
      'error',
      '--summary-interval',
      '0',
    ],
    {},
  );
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mb = (bytes) => bytes / 1e6;

/** One run of `who` into a fresh directory under `target`, checked byte for byte in size, then removed. */
async function runOnce(who, server, catalogue, target, concurrency, tag) {
  const out = mkdtempSync(join(target.dir, `bench-out-${who}-${tag}-`));
  try {
    settle();
    const r = await RUNNERS[who](server, catalogue.ids, out, concurrency);
    const got = catalogue.ids.reduce((sum, id) => sum + statSync(join(out, id, 'demo.mp4')).size, 0);
    if (got !== catalogue.bytes) throw new Error(`${who} wrote ${got} bytes, expected ${catalogue.bytes}`);
    return r;
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(`${out}.aria-input.txt`, { force: true });
  }
}

/**
 * The sampler's figures over the runs (bench/memory-sampler.cjs): each peak's median and
 * spread, and the RSS of the first sample (the process before any transfer), in MiB like the
 * peak RSS of /usr/bin/time beside them.
 */
function memoryLine(memories) {
  const figure = (pick) => {
    const xs = memories.map(pick).map((b) => b / 2 ** 20);
    return `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
  };
  return (
    `sampled peaks, MB, median (min–max): RSS ${figure((m) => m.peak.rss)}  heap used ${figure((m) => m.peak.heapUsed)}  ` +
    `array buffers ${figure((m) => m.peak.arrayBuffers)}  external ${figure((m) => m.peak.external)}  RSS at start ${figure((m) => m.first.rss)}`
  );
}

const rows = [];
/** The budgets: peak RSS ≤ 160 MiB in every case; wall time ≤ aria2c's for the bulk run, ≤ 0.9x for one big file. */
const RSS_BUDGET_MB = 160;
const WALL_BUDGET = { bulk: 1, big: 0.9 };

async function compare(label, catalogue, target, concurrency, runs, wallBudget) {
  const server = await createCatalogueServer({ dir: catalogue.dir });
  const loadBefore = loadavg()[0];
  const results = Object.fromEntries(tools.map((t) => [t, []]));
  try {
    for (let w = 0; w < WARMUP; w++) for (const who of tools) await runOnce(who, server, catalogue, target, concurrency, `w${w}`);
    for (let i = 0; i < runs; i++) {
      // A B, B A, A B, …: neither tool always runs first; each pair shares the machine's state.
      const order = i % 2 === 0 ? tools : [...tools].reverse();
      for (const who of order) results[who].push(await runOnce(who, server, catalogue, target, concurrency, String(i)));
    }
  } finally {
    await server.close();
  }
  console.log(
    `\n${label} → ${target.name} (${target.dir}): ${catalogue.ids.length} file(s), ${mb(catalogue.bytes).toFixed(0)} MB, concurrency ${concurrency}, ${runs} run(s) each after ${WARMUP} warm-up`,
  );
  // Both tools and the server share the machine's cores: anything else running skews the figures.
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`;
  console.log(`  ${load}${loadBefore > 0.5 ? ' (something else was running: expect noisy figures)' : ''}`);
  const summary = {};
  for (const who of tools) {
    const rs = results[who];
    const seconds = median(rs.map((r) => r.seconds));
    const row = {
      seconds,
      mbps: mb(catalogue.bytes) / seconds,
      cpu: median(rs.map((r) => r.cpu)),
      rssMax: Math.max(...rs.map((r) => r.rssKb)) / 1024,
      rssMedian: median(rs.map((r) => r.rssKb)) / 1024,
    };
    summary[who] = row;
    const name = TOOL_NAMES[who];
    console.log(
      `  ${name.padEnd(19)} median ${seconds.toFixed(2)} s  ${row.mbps.toFixed(0).padStart(5)} MB/s  CPU ${row.cpu.toFixed(2)} s  peak RSS ${row.rssMax.toFixed(0)} MB (median ${row.rssMedian.toFixed(0)})  runs: ${rs.map((r) => r.seconds.toFixed(2)).join(' ')}`,
    );
    if (rs.every((r) => r.memory)) console.log(`  ${''.padEnd(19)} ${memoryLine(rs.map((r) => r.memory))}`);
  }
  for (const who of tools.filter((t) => t !== 'aria2c')) {
    if (!summary.aria2c) break;
    const pairs = results[who].map((r, i) => r.seconds / results.aria2c[i].seconds);
    const wall = summary[who].seconds / summary.aria2c.seconds;
    const pair = median(pairs);
    const ok = wall <= wallBudget && summary[who].rssMax <= RSS_BUDGET_MB;
    Object.assign(summary[who], { wall, pair });
    console.log(
      `  wall-time ratio (${TOOL_NAMES[who]} / aria2c): ${wall.toFixed(2)}x of the medians; per pair median ${pair.toFixed(2)}x (${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)}); ` +
        `budget ≤ ${wallBudget.toFixed(2)}x and ≤ ${RSS_BUDGET_MB} MiB: ${ok ? 'met' : 'MISSED'}`,
    );
  }
  rows.push({ label, target: target.name, files: catalogue.ids.length, bytes: catalogue.bytes, concurrency, runs, ...summary });
}

const nodeVersion = NODE === process.execPath ? process.version : spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `node ${nodeVersion} (${NODE}); aria2c ${hasAria ? spawnSync('aria2c', ['--version']).stdout.toString().split('\n')[0] : 'MISSING: install it (Debian: apt-get install aria2) to compare'}; ` +
    `RSS and CPU from ${hasTimeV ? '/usr/bin/time -v' : '/proc VmHWM sampling'}; source on ${hasTmpfs ? TMPFS : tmpdir()}; ` +
    `between runs: sync${canDropCaches ? ' + drop page cache' : ''}`,
);

/** The same sizes on every invocation (a fixed-seed LCG), so figures compare across runs of the bench. */
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const sizes = Array.from({ length: FILES }, () => Math.round(MIN + random() * (MAX - MIN)));
const many = await makeCatalogue(sizes, 'Bulk');
try {
  for (const target of targets) await compare('Bulk', many, target, CONCURRENCY, RUNS, WALL_BUDGET.bulk);
} finally {
  if (!args.keep) rmSync(many.dir, { recursive: true, force: true });
}

if (BIG > 0) {
  const big = await makeCatalogue([BIG], 'Big');
  try {
    for (const target of targets) await compare(`One ${args['big-gb']} GB video`, big, target, 1, BIG_RUNS, WALL_BUDGET.big);
  } finally {
    if (!args.keep) rmSync(big.dir, { recursive: true, force: true });
  }
}

rmSync(benchHome, { recursive: true, force: true });

if (args.markdown) {
  const f = (row, key, digits = 0) => (row ? row[key].toFixed(digits) : '–');
  const others = tools.filter((t) => t !== 'aria2c');
  console.log('\n| Case | Target | Tool | MB/s | Wall s | Wall vs aria2c (medians) | (per pair) | Peak RSS | CPU s |');
  console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    for (const who of [...others, ...(r.aria2c ? ['aria2c'] : [])]) {
      const x = r[who];
      const wall = x.wall !== undefined ? `**${x.wall.toFixed(2)}x**` : '–';
      const pair = x.pair !== undefined ? `${x.pair.toFixed(2)}x` : '–';
      console.log(
        `| ${r.label}: ${r.files} file(s), ${mb(r.bytes).toFixed(0)} MB, concurrency ${r.concurrency} | ${r.target} | ${TOOL_NAMES[who]} | ${f(x, 'mbps')} | ${f(x, 'seconds', 2)} | ${wall} | ${pair} | ${f(x, 'rssMax')} MB | ${f(x, 'cpu', 2)} |`,
      );
    }
  }
}
