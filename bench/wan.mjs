#!/usr/bin/env node
/**
 * Bulk download over a slow link: `exercises download --muscle chest --images` (the listing
 * included) against `curl --parallel --parallel-max C` and `aria2c -j C` handed the same URL
 * list, through a delay proxy of our own on loopback, at concurrency 4 and 8.
 *
 *   npm run build && node bench/wan.mjs                     # 120 exercises, 240 images of 60 KB, 100 ms round trip
 *   node bench/wan.mjs --rtt 50 --runs 5 --exercises 60
 *   node bench/wan.mjs --bandwidth 2m                        # also a shared 2 MiB/s link each way
 *   node bench/wan.mjs --help
 *
 * - The delay proxy holds every chunk it forwards for half the round trip, in both directions,
 *   each connection's chunks in order; with --bandwidth, one link each way shared by all
 *   connections sends a chunk only once the chunks before it have gone. Connecting through it
 *   costs nothing extra (the connect is on loopback): as on a real link with a warm proxy, only
 *   the bytes travel slowly.
 * - The catalogue (N exercises, all CHEST, two 60 KB images each) is served by the project's
 *   own catalogue server in this process; curl and aria2c get the media URLs the listing
 *   gives, with the key header, so all three fetch the same files. Ours also lists (one
 *   request per 25 exercises) and starts a Node process; the others are handed the list.
 * - Runs are interleaved (the order turns each round), medians of --runs (≥ 3) after a warm-up,
 *   a fresh output folder each run, children in a minimal environment (bench/lib.mjs
 *   minimalEnv) and ours with --no-cache, so every run pays for its listing.
 * - The lower bound: files ÷ concurrency × round trip (no tool can beat it).
 *
 * On a shared machine the ratios move with the other processes' load: run it on a quiet one
 * for figures to compare, and look at the load average it prints.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, minimalEnv, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(root, 'bin', 'exercises.js');
const KEY = 'sandbox-premium';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const HELP = `Usage: node bench/wan.mjs [options]

  --rtt <ms>            round trip the proxy adds (default 100: half each way, per chunk)
  --bandwidth <rate>    also a link of this many bytes/s each way, shared by all connections
                        (curl's syntax: 500k, 2m; default none)
  --exercises <n>       exercises in the catalogue, two 60 KB images each (default 120)
  --image-kb <n>        size of each image in KB (default 60)
  --concurrency <list>  comma-separated (default 4,8)
  --runs <n>            timed runs per tool and concurrency (default 3; at least 3)
  --warmup <n>          untimed runs per tool first (default 1)
  --tool <list>         ours,curl,aria2c (default: all three; a missing one is skipped)
  --node <path>         the Node binary that runs ours (default: this one)
  -h, --help            this text`;

const argv = process.argv.slice(2);
const { node: NODE, nodeVersion } = takeNodeOption(argv);
const { values: args } = parseArgs({
  args: argv,
  options: {
    rtt: { type: 'string', default: '100' },
    bandwidth: { type: 'string' },
    exercises: { type: 'string', default: '120' },
    'image-kb': { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '4,8' },
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    tool: { type: 'string', default: 'ours,curl,aria2c' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const RTT = Number(args.rtt);
const EXERCISES = Number(args.exercises);
const IMAGE_BYTES = Number(args['image-kb']) * 1000;
const CONCURRENCIES = args.concurrency.split(',').map(Number);
const RUNS = Math.max(3, Number(args.runs));
const WARMUP = Number(args.warmup);
const { parseByteRate } = await import(join(root, 'dist', 'config', 'parsers.js')).catch(() => {
  console.error('Build first: npm run build');
  process.exit(2);
});
const BANDWIDTH = args.bandwidth === undefined ? undefined : parseByteRate(args.bandwidth, '--bandwidth') || undefined;
const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));

const has = (cmd) => spawnSync(cmd, ['--version']).status === 0;
const TOOLS = args.tool
  .split(',')
  .map((t) => t.trim())
  .filter((t) => t === 'ours' || has(t === 'curl' ? 'curl' : 'aria2c'));

// ── The catalogue ────────────────────────────────────────────────────────────────────────

/** N exercises, all CHEST (so `--muscle chest` lists them all), each with two images. */
function makeCatalogue() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wan-'));
  const lines = [];
  for (let i = 0; i < EXERCISES; i++) {
    const id = `Wan_${String(i).padStart(4, '0')}`;
    const folder = join(dir, 'images', id, 'premium');
    mkdirSync(folder, { recursive: true });
    for (const name of ['start', 'end']) {
      writeFileSync(join(folder, `${name}.png`), Buffer.concat([PNG_SIGNATURE, randomBytes(IMAGE_BYTES - PNG_SIGNATURE.length)]));
    }
    lines.push(
      JSON.stringify({
        id,
        name: `Wan exercise ${i}`,
        category: 'STRENGTH',
        primaryMuscle: ['CHEST'],
        level: 'BEGINNER',
        equipment: 'BODY_ONLY',
        instructions: ['Move.'],
        premiumImages: ['start', 'end'],
      }),
    );
  }
  writeFileSync(join(dir, 'exercises.jsonl'), `${lines.join('\n')}\n`);
  const paths = lines.flatMap((l) => {
    const { id } = JSON.parse(l);
    return ['start', 'end'].map((name) => ({ path: `/images/${id}/premium/${name}.png`, out: `${id}/${name}.png` }));
  });
  return { dir, paths };
}

// ── The delay proxy ──────────────────────────────────────────────────────────────────────

/** One direction of the link: each chunk leaves when the link is free (with a bandwidth) and arrives half a round trip later. */
function link() {
  let freeAt = 0;
  return (chunk, deliver) => {
    const now = performance.now();
    const leaves = BANDWIDTH ? Math.max(now, freeAt) + (chunk.length * 1000) / BANDWIDTH : now;
    if (BANDWIDTH) freeAt = leaves;
    setTimeout(deliver, leaves - now + RTT / 2);
  };
}

/** A TCP proxy on 127.0.0.1 to `target` that delays every chunk both ways (and the close after them). */
function startDelayProxy(target) {
  const up = link();
  const down = link();
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    const pipe = (from, to, direction) => {
      from.on('data', (chunk) => direction(chunk, () => to.destroyed || to.write(chunk)));
      from.on('end', () => direction(Buffer.alloc(0), () => to.end()));
      from.on('close', () => direction(Buffer.alloc(0), () => to.destroy()));
    };
    pipe(client, upstream, up);
    pipe(upstream, client, down);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => {
          for (const s of sockets) s.destroy();
          return new Promise((r) => server.close(r));
        },
      }),
    ),
  );
}

// ── The tools ────────────────────────────────────────────────────────────────────────────

const home = mkdtempSync(join(tmpdir(), 'bench-wan-home-'));
const ENV = minimalEnv(home);

/** /usr/bin/time, when there is one: each run's CPU seconds too, the fairer figure on a loaded machine. */
const TIME = spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0 ? '/usr/bin/time' : undefined;

/**
 * Wall ms and CPU ms (user + sys; NaN without /usr/bin/time) of one child; a failure stops the
 * bench (a tool that fetched nothing would look fast).
 */
function timed(cmd, argv, env = ENV) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, list] = TIME ? [TIME, ['-f', 'cpu %U %S', cmd, ...argv]] : [cmd, argv];
    const child = spawn(file, list, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = performance.now() - started;
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${stderr.slice(-1500)}`));
      const cpu = /^cpu ([\d.]+) ([\d.]+)$/m.exec(stderr);
      resolve({ wall, cpu: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN });
    });
  });
}

const RUNNERS = {
  ours: (proxy, _paths, out, c) =>
    timed(
      NODE,
      [cliPath, '--base-url', proxy.url, '--no-cache', '--quiet', 'download', '--muscle', 'chest', '--images', '--dir', out, '--concurrency', String(c)],
      { ...ENV, EXERCISES_API_KEY: KEY },
    ),
  curl: (proxy, paths, out, c) => {
    const config = `${out}.curl.txt`;
    writeFileSync(config, paths.map((p) => `url = "${proxy.url}${p.path}"\noutput = "${join(out, p.out)}"\n`).join(''));
    return timed('curl', ['--parallel', '--parallel-max', String(c), '-sS', '--fail', '--create-dirs', '-H', `X-API-Key: ${KEY}`, '-K', config]);
  },
  aria2c: (proxy, paths, out, c) => {
    const list = `${out}.aria2c.txt`;
    writeFileSync(list, paths.map((p) => `${proxy.url}${p.path}\n  out=${p.out}\n`).join(''));
    return timed('aria2c', [
      '-j',
      String(c),
      '--input-file',
      list,
      '--dir',
      out,
      '--split=1',
      '--max-connection-per-server=1',
      '--file-allocation=none',
      '--allow-overwrite=true',
      '--auto-file-renaming=false',
      '--console-log-level=error',
      '--summary-interval=0',
      '--header',
      `X-API-Key: ${KEY}`,
    ]);
  },
};

// ── The run ──────────────────────────────────────────────────────────────────────────────

const catalogue = makeCatalogue();
const server = await createCatalogueServer({ dir: catalogue.dir, host: '127.0.0.1', port: 0 });
const proxy = await startDelayProxy(new URL(server.url));
const outRoot = mkdtempSync(join(tmpdir(), 'bench-wan-out-'));
const files = catalogue.paths.length;
const versions = {
  curl: has('curl') ? spawnSync('curl', ['--version']).stdout.toString().split('\n')[0] : 'missing',
  aria2c: has('aria2c') ? spawnSync('aria2c', ['--version']).stdout.toString().split('\n')[0] : 'missing (apt-get install aria2)',
};
console.log(
  `node ${nodeVersion}; ${versions.curl}; ${versions.aria2c}\n` +
    `${EXERCISES} exercises, ${files} images of ${IMAGE_BYTES / 1000} KB, round trip ${RTT} ms${BANDWIDTH ? `, link ${BANDWIDTH} B/s each way` : ''}; ` +
    `${RUNS} runs after ${WARMUP} warm-up, interleaved; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);

let run = 0;
let ok = true;
try {
  for (const c of CONCURRENCIES) {
    const samples = Object.fromEntries(TOOLS.map((t) => [t, []]));
    for (let i = 0; i < WARMUP + RUNS; i++) {
      for (const tool of i % 2 === 0 ? TOOLS : [...TOOLS].reverse()) {
        const out = join(outRoot, `${tool}-${run++}`);
        mkdirSync(out);
        const result = await RUNNERS[tool](proxy, catalogue.paths, out, c);
        rmSync(out, { recursive: true, force: true });
        if (i >= WARMUP) samples[tool].push(result);
      }
    }
    const bound = (files / c) * RTT;
    const wall = (tool) => median(samples[tool].map((r) => r.wall));
    const curl = samples.curl?.length ? wall('curl') : undefined;
    console.log(`\nconcurrency ${c}: lower bound ${files} files ÷ ${c} × ${RTT} ms = ${bound.toFixed(0)} ms`);
    for (const tool of TOOLS) {
      const m = wall(tool);
      const cpu = median(samples[tool].map((r) => r.cpu));
      const vsCurl = curl !== undefined ? `${(m / curl).toFixed(2)}x curl` : '';
      const target = tool === 'ours' && curl !== undefined ? ` (target ≤ 1.05x: ${m / curl <= 1.05 ? 'ok' : 'OVER'})` : '';
      if (tool === 'ours' && curl !== undefined && m / curl > 1.05) ok = false;
      console.log(
        `  ${tool.padEnd(7)} median ${m.toFixed(0).padStart(6)} ms  ${(m / bound).toFixed(2)}x bound  cpu ${Number.isNaN(cpu) ? '?' : cpu.toFixed(0)} ms  ${vsCurl}${target}   runs ${samples[tool].map((r) => r.wall.toFixed(0)).join(' ')}`,
      );
    }
  }
} finally {
  await proxy.close();
  await server.close();
  for (const dir of [catalogue.dir, outRoot, home]) rmSync(dir, { recursive: true, force: true });
}
process.exitCode = ok ? 0 : 1;
