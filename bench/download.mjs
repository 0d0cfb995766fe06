#!/usr/bin/env node
/**
 * Bulk download benchmark: `exercises download` against aria2c on the same files, from the
 * same catalogue server, at the same concurrency; medians over several runs, the throughput
 * ratio, and the peak RSS of both processes (from /usr/bin/time -v, or VmHWM sampling).
 *
 *   npm run build && npm run bench:download
 *   node bench/download.mjs --files 40 --min-mb 8 --max-mb 32 --runs 5 --concurrency 4
 *   node bench/download.mjs --big-gb 1          # also one 1 GB video, for the flat-memory claim
 *
 * The catalogue (valid MP4/PNG heads + filler bytes) is generated in a temp directory and
 * removed at the end. Needs aria2c (Debian: `apt-get install aria2`); without it, only our
 * figures are shown.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(root, 'bin', 'exercises.js');
const KEY = 'sandbox-premium';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '40' },
    'min-mb': { type: 'string', default: '8' },
    'max-mb': { type: 'string', default: '32' },
    runs: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    'big-gb': { type: 'string', default: '0' },
    keep: { type: 'boolean', default: false },
  },
});
const FILES = Number(args.files);
const MIN = Number(args['min-mb']) * 1024 * 1024;
const MAX = Number(args['max-mb']) * 1024 * 1024;
const RUNS = Number(args.runs);
const CONCURRENCY = Number(args.concurrency);
const BIG = Number(args['big-gb']) * 1024 * 1024 * 1024;

if (!existsSync(join(root, 'dist', 'server', 'catalogue-server.js'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));

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

/** A catalogue directory with `sizes.length` exercises, one video each. */
async function makeCatalogue(sizes, prefix) {
  const dir = mkdtempSync(join(tmpdir(), `bench-${prefix}-`));
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

const hasTimeV = spawnSync('/usr/bin/time', ['-v', 'true']).status === 0;
const hasAria = spawnSync('aria2c', ['--version']).status === 0;

/** Runs a command, timing it and measuring its peak RSS (kB). */
function measure(cmd, argv, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const full = hasTimeV ? ['/usr/bin/time', ['-v', cmd, ...argv]] : [cmd, argv];
    const child = spawn(full[0], full[1], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
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
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const rssKb = m ? Number(m[1]) : hwm;
      if (code !== 0) reject(new Error(`${cmd} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ seconds, rssKb });
    });
  });
}

function runOurs(server, ids, out, concurrency) {
  return measure(process.execPath, [cliPath, '--base-url', server.url, '--quiet', 'download', ...ids, '--videos', '--dir', out, '--concurrency', String(concurrency)], {
    EXERCISES_API_KEY: KEY,
  });
}

function runAria(server, ids, out, concurrency) {
  const list = join(out, '..', `aria-input-${Date.now()}.txt`);
  writeFileSync(list, ids.map((id) => `${server.url}/videos/${id}/premium/demo.mp4\n  out=${id}/demo.mp4`).join('\n') + '\n');
  return measure('aria2c', [
    '--input-file', list, '--dir', out, '--max-concurrent-downloads', String(concurrency),
    '--split', '1', '--max-connection-per-server', '1', '--header', `X-API-Key: ${KEY}`,
    '--file-allocation', 'none', '--allow-overwrite', 'true', '--auto-file-renaming', 'false',
    '--quiet', 'true', '--console-log-level', 'error', '--summary-interval', '0',
  ], {});
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mb = (bytes) => bytes / 1e6;

async function compare(label, catalogue, concurrency, runs) {
  const server = await createCatalogueServer({ dir: catalogue.dir });
  const work = mkdtempSync(join(tmpdir(), 'bench-out-'));
  const results = { ours: [], aria: [] };
  try {
    for (let i = 0; i < runs; i++) {
      // Alternate who goes first, so neither always gets the warmer page cache.
      const order = i % 2 === 0 ? ['ours', 'aria'] : ['aria', 'ours'];
      for (const who of order) {
        if (who === 'aria' && !hasAria) continue;
        const out = join(work, `${who}-${i}`);
        mkdirSync(out);
        const r = who === 'ours' ? await runOurs(server, catalogue.ids, out, concurrency) : await runAria(server, catalogue.ids, out, concurrency);
        const got = catalogue.ids.reduce((sum, id) => sum + statSync(join(out, id, 'demo.mp4')).size, 0);
        if (got !== catalogue.bytes) throw new Error(`${who} wrote ${got} bytes, expected ${catalogue.bytes}`);
        results[who].push(r);
        rmSync(out, { recursive: true, force: true });
      }
    }
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const line = (who, name) => {
    const rs = results[who];
    if (rs.length === 0) return undefined;
    const s = median(rs.map((r) => r.seconds));
    const rss = Math.max(...rs.map((r) => r.rssKb)) / 1024;
    const row = { name, seconds: s, mbps: mb(catalogue.bytes) / s, rss };
    console.log(`  ${name.padEnd(20)} median ${s.toFixed(2)} s   ${row.mbps.toFixed(0).padStart(5)} MB/s   peak RSS ${rss.toFixed(0)} MB   (runs: ${rs.map((r) => r.seconds.toFixed(2)).join(', ')})`);
    return row;
  };
  console.log(`\n${label}: ${catalogue.ids.length} file(s), ${mb(catalogue.bytes).toFixed(0)} MB, concurrency ${concurrency}, ${runs} run(s)`);
  const ours = line('ours', 'exercises download');
  const aria = line('aria', 'aria2c');
  if (ours && aria) console.log(`  throughput ratio (exercises / aria2c): ${(ours.mbps / aria.mbps).toFixed(2)}x`);
  return { ours, aria };
}

console.log(`node ${process.version}; aria2c ${hasAria ? spawnSync('aria2c', ['--version']).stdout.toString().split('\n')[0] : 'MISSING: install it (Debian: apt-get install aria2) to compare'}; RSS from ${hasTimeV ? '/usr/bin/time -v' : '/proc VmHWM sampling'}`);

const sizes = Array.from({ length: FILES }, () => Math.round(MIN + Math.random() * (MAX - MIN)));
const many = await makeCatalogue(sizes, 'Bulk');
try {
  await compare('Bulk', many, CONCURRENCY, RUNS);
} finally {
  if (!args.keep) rmSync(many.dir, { recursive: true, force: true });
}

if (BIG > 0) {
  const big = await makeCatalogue([BIG], 'Big');
  try {
    await compare('One big video', big, 1, Math.max(1, Math.min(RUNS, 3)));
  } finally {
    if (!args.keep) rmSync(big.dir, { recursive: true, force: true });
  }
}
