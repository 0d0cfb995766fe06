#!/usr/bin/env node
/**
 * Decoding the largest picture the CLI draws: our PNG decoder (src/output/images/png-cells.ts, as built in dist/)
 * against fast-png (npm `fast-png`, pure JavaScript) behind the same header check, on the PNGs the budget lets through.
 *
 *   npm run build && node bench/png-decode.mjs             # 3 interleaved rounds
 *   node bench/png-decode.mjs --runs 5 --node /path/to/node
 *   node bench/png-decode.mjs --decoders ours             # one of them (ours, fast-png)
 *
 * The pictures, made into a temporary folder (removed at the end):
 * - `largest`: 4000×4000 RGBA at 8 bits, PICTURE_PIXEL_BUDGET's 16 megapixels, 6 random bits a byte so that it
 *   compresses to just under MEDIA_SIZE_CAP_BYTES.image (50 MiB): the most pixels and the most deflate work a file
 *   may hold. Written by pngjs, as one IDAT chunk.
 * - `largest, 8 KiB IDATs`: the same image data cut into 8 KiB IDAT chunks, as libpng writes them.
 * - `bomb`: a header declaring the same 4000×4000 RGBA and image data of zeros that fills the 50 MiB cap and inflates
 *   to about 54 GB (deflate's ~1,030:1), the worst a file within both limits can ask of an inflater.
 *
 * Each decode runs in a child process of its own (a minimal environment: PATH and HOME), which times the decode
 * alone and reports its peak RSS (VmHWM of /proc/self/status; not getrusage's maxRSS, which a child spawned by
 * libuv may inherit from the bench's own process at exec). The bounds: 200 MiB peak RSS, 5 s. A child past 1 GiB or 30 s is
 * stopped (the bomb would take the machine's memory) and reported as such with what it reached.
 * `ours` draws the picture into an 80×24 box (what `image --view=blocks` does); `fast-png` runs the header check
 * (checkPngBudget) then fast-png's decode() only, without turning its pixels into cells: a lower bound of its cost.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { median, minimalEnv, takeNodeOption } from './lib.mjs';

const self = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const MIB = 2 ** 20;
const SIZE_CAP = 50 * MIB; // MEDIA_SIZE_CAP_BYTES.image
const SIDE = 4000; // 4000 × 4000 = PICTURE_PIXEL_BUDGET
const BOUNDS = { rssMiB: 200, ms: 5_000 };
const STOP = { rssMiB: 1024, ms: 30_000 };

/** The VmHWM (peak RSS) and VmRSS of a live process, in MiB. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { hwm: kib('VmHWM') / 1024, rss: kib('VmRSS') / 1024 };
  } catch {
    return undefined;
  }
}

// ---- the child: one decode, its time and peak RSS as one JSON line ----

if (process.argv[2] === '--child') {
  const [decoder, file] = process.argv.slice(3);
  const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);
  const { checkPngBudget, pngCells } = await dist('output/images/png-cells.js');
  const { decode } = decoder === 'fast-png' ? await import('fast-png') : {};
  const png = readFileSync(file);
  const started = performance.now();
  let outcome;
  try {
    if (decoder === 'ours') {
      await pngCells(png, { columns: 80, rows: 24 });
      outcome = 'drawn';
    } else {
      checkPngBudget(png);
      const { width, height } = decode(png);
      outcome = `decoded ${width}×${height}`;
    }
  } catch (err) {
    outcome = `refused: ${err.message}`;
  }
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ ms, rssMiB: memoryOf(process.pid).hwm, outcome })}\n`);
  process.exit(0);
}

// ---- the pictures ----

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** A PNG of `ihdr` whose image data is `idat`, cut into IDAT chunks of `every` bytes. */
function pngOf(ihdr, idat, every = idat.length) {
  const parts = [];
  for (let at = 0; at < idat.length; at += every) parts.push(chunk('IDAT', idat.subarray(at, at + every)));
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), ...parts, chunk('IEND', Buffer.alloc(0))]);
}

/** The IHDR body and the joined IDAT bodies of `png`. */
function partsOf(png) {
  let ihdr;
  const idat = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') ihdr = body;
    if (type === 'IDAT') idat.push(body);
    at += 12 + length;
  }
  return { ihdr, idat: Buffer.concat(idat) };
}

function largest() {
  const { PNG } = createRequire(self)('pngjs');
  const png = new PNG({ width: SIDE, height: SIDE });
  let seed = 1;
  for (let i = 0; i < png.data.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    png.data[i] = (seed >>> 24) & 0x3f;
  }
  return PNG.sync.write(png, { filterType: 0 }); // no filter: the 6 bits stay 6 bits
}

/** Zeros as a zlib stream as long as fits `bytes`: one sync-flushed deflate segment repeated, then the last block. */
function zerosBomb(bytes) {
  const SEGMENT_ZEROS = 16 * MIB;
  const segment = deflateRawSync(Buffer.alloc(SEGMENT_ZEROS), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const count = Math.floor((bytes - 8) / segment.length);
  const zeros = count * SEGMENT_ZEROS;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((zeros % 65521) << 16) | 1) >>> 0); // Adler-32 of zeros: a stays 1, b counts them
  return { stream: Buffer.concat([Buffer.from([0x78, 0xda]), ...Array(count).fill(segment), Buffer.from([3, 0]), adler]), zeros };
}

function makePictures(dir) {
  const big = largest();
  const { ihdr, idat } = partsOf(big);
  const bomb = zerosBomb(SIZE_CAP - 100);
  const pictures = [
    { name: 'largest', file: join(dir, 'largest.png'), bytes: big, note: '4000×4000 RGBA' },
    { name: 'largest, 8 KiB IDATs', file: join(dir, 'largest-8k.png'), bytes: pngOf(ihdr, idat, 8192), note: '4000×4000 RGBA' },
    { name: 'bomb', file: join(dir, 'bomb.png'), bytes: pngOf(ihdr, bomb.stream), note: `inflates to ${(bomb.zeros / 1e9).toFixed(1)} GB` },
  ];
  for (const p of pictures) {
    if (p.bytes.length > SIZE_CAP) throw new Error(`${p.name} is ${p.bytes.length} bytes, over the size cap`);
    writeFileSync(p.file, p.bytes);
    p.size = p.bytes.length;
    delete p.bytes;
  }
  return pictures;
}

// ---- running ----

function decodeOnce(node, env, decoder, file) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, [self, '--child', decoder, file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let stopped;
    let seen = 0;
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    const watch = setInterval(() => {
      const m = memoryOf(child.pid);
      if (m) seen = Math.max(seen, m.hwm);
      const ms = performance.now() - started;
      if ((m && m.rss > STOP.rssMiB) || ms > STOP.ms) {
        stopped = { ms, rssMiB: seen, outcome: m && m.rss > STOP.rssMiB ? `stopped past ${STOP.rssMiB} MiB` : `stopped at ${STOP.ms / 1000} s` };
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      if (stopped) return resolve({ ...stopped, stopped: true });
      if (code !== 0) return reject(new Error(`${decoder} ${file} exited ${code}: ${err}`));
      resolve(JSON.parse(out));
    });
  });
}

const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const option = (name, otherwise) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : otherwise);
const runs = Number(option('--runs', '3'));
const decoders = option('--decoders', 'ours,fast-png').split(',');
if (!existsSync(join(root, 'dist', 'output', 'images', 'png-cells.js'))) throw new Error('run `npm run build` first');

const dir = mkdtempSync(join(tmpdir(), 'exercises-png-bench-'));
try {
  console.log(`Node ${nodeVersion}, ${runs} interleaved rounds, load average ${loadavg()[0].toFixed(1)} at the start`);
  const pictures = makePictures(dir);
  const env = minimalEnv(dir);
  const cases = pictures.flatMap((picture) => decoders.map((decoder) => ({ picture, decoder, results: [] })));
  for (let round = 0; round < runs; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) c.results.push(await decodeOnce(node, env, c.decoder, c.picture.file));
  }
  console.log(`load average ${loadavg()[0].toFixed(1)} at the end; bounds ${BOUNDS.rssMiB} MiB peak RSS, ${BOUNDS.ms / 1000} s\n`);
  console.log(`${'picture'.padEnd(50)}${'decoder'.padEnd(10)}${'ms'.padStart(8)}${'peak MiB'.padStart(10)}  within  outcome`);
  for (const { picture, decoder, results } of cases) {
    const ms = median(results.map((r) => r.ms));
    const rss = median(results.map((r) => r.rssMiB));
    const within = !results.some((r) => r.stopped) && ms <= BOUNDS.ms && rss <= BOUNDS.rssMiB;
    const what = `${picture.name} (${(picture.size / MIB).toFixed(1)} MiB, ${picture.note})`;
    const outcomes = [...new Set(results.map((r) => r.outcome))].join(' | ');
    const range = (values, unit) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))} ${unit}`;
    const spread = `${range(
      results.map((r) => r.ms),
      'ms',
    )}, ${range(
      results.map((r) => r.rssMiB),
      'MiB',
    )}`;
    console.log(
      `${what.padEnd(50)}${decoder.padEnd(10)}${ms.toFixed(0).padStart(8)}${rss.toFixed(0).padStart(10)}  ${within ? 'yes   ' : 'NO    '}  ${outcomes} (${spread})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
