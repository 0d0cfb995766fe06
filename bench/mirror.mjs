#!/usr/bin/env node
/**
 * Mirror benchmark: `exercises mirror <dir> --langs de-DE` of a generated catalogue (2,500
 * exercises by default, each with a de-DE translation) served by `exercises serve` over
 * loopback. Reports wall time, the requests the server answered (from its request log) and
 * the mirror's peak RSS (/usr/bin/time -v, else VmHWM sampled from /proc), then checks a
 * rerun costs only the listing.
 *
 *   npm run build && node bench/mirror.mjs
 *   node bench/mirror.mjs --count 873
 *   node bench/mirror.mjs --node <path>    (the Node binary both processes run, e.g. Node 22 or 24)
 *
 * Both processes run with a minimal environment (PATH, HOME and the XDG directories only).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { minimalEnv, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(root, 'bin', 'exercises.js');
const KEY = 'sandbox-premium';

const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const { values } = parseArgs({ args: argv, options: { count: { type: 'string', default: '2500' }, keep: { type: 'boolean', default: false } } });
const count = Number(values.count);

const MUSCLES = ['CHEST', 'LATS', 'QUADRICEPS', 'HAMSTRINGS', 'GLUTES', 'SHOULDERS', 'BICEPS', 'TRICEPS', 'CALVES', 'ABDOMINALS'];
const EQUIPMENT = ['BARBELL', 'DUMBBELL', 'BODY_ONLY', 'CABLE', 'MACHINE', 'KETTLEBELLS', 'BANDS', 'OTHER'];

/** A record in the spec shape (§2.1), with a de-DE translation. */
function generated(i) {
  const name = `Generated Exercise ${String(i).padStart(5, '0')}`;
  return {
    id: name.replaceAll(' ', '_'),
    name,
    displayName: name,
    aliases: [`Alias ${i}`],
    category: 'STRENGTH',
    primaryMuscle: [MUSCLES[i % MUSCLES.length]],
    secondaryMuscle: [MUSCLES[(i + 3) % MUSCLES.length]],
    force: i % 2 ? 'PUSH' : 'PULL',
    level: ['BEGINNER', 'INTERMEDIATE', 'EXPERT'][i % 3],
    mechanic: i % 2 ? 'COMPOUND' : 'ISOLATION',
    equipment: EQUIPMENT[i % EQUIPMENT.length],
    instructions: [`Step one of exercise ${i}.`, `Step two of exercise ${i}, done with control.`, `Step three of exercise ${i}.`],
    premiumImages: [],
    premiumVideos: [],
    translations: {
      'de-DE': {
        displayName: `Generierte Übung ${i}`,
        aliases: [`Alias ${i} (de)`],
        instructions: [`Schritt eins von Übung ${i}.`, `Schritt zwei.`, `Schritt drei.`],
      },
    },
  };
}

const work = mkdtempSync(join(tmpdir(), 'bench-mirror-'));
const source = join(work, 'source');
const target = join(work, 'target');
const home = join(work, 'home');
mkdirSync(source);
mkdirSync(home);
writeFileSync(join(source, 'exercises.jsonl'), `${Array.from({ length: count }, (_, i) => JSON.stringify(generated(i))).join('\n')}\n`);

const env = minimalEnv(home);
const server = spawn(node, [cliPath, 'serve', source, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let requestLines = 0;
server.stderr.setEncoding('utf8');
server.stderr.on('data', (chunk) => {
  requestLines += chunk.split('\n').filter((l) => /^(GET|HEAD) /.test(l)).length;
});
const baseUrl = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const m = /Listening on (\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  let err = '';
  server.stderr.on('data', (c) => (err += c));
  server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
});

const hasTime = existsSync('/usr/bin/time');

/** Runs `exercises mirror`, timing it and taking its peak RSS. */
async function runMirror() {
  const args = ['--base-url', baseUrl, '--api-key', KEY, 'mirror', target, '--langs', 'de-DE'];
  const before = requestLines;
  const started = performance.now();
  let peakKb = 0;
  let stderr = '';
  const code = await new Promise((resolve) => {
    const child = hasTime
      ? spawn('/usr/bin/time', ['-v', node, cliPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(node, [cliPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const sampler = hasTime
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) peakKb = Math.max(peakKb, Number(m[1]));
          } catch {}
        }, 20);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (c) => {
      if (sampler) clearInterval(sampler);
      resolve(c);
    });
  });
  const seconds = (performance.now() - started) / 1000;
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  if (m) peakKb = Number(m[1]);
  await new Promise((r) => setTimeout(r, 200)); // the server's last log lines
  return { code, seconds, requests: requestLines - before, peakMb: peakKb / 1024, stderr };
}

try {
  const first = await runMirror();
  const rerun = await runMirror();
  const lines = readFileSync(join(target, 'exercises.jsonl'), 'utf8').split('\n').filter(Boolean).length;
  const expected = Math.ceil(count / 25) + 2 * count;
  console.log(`exercises mirror --langs de-DE: ${count} generated exercises over loopback (node ${nodeVersion})`);
  console.log(
    `  first run: ${first.seconds.toFixed(2)} s wall, ${first.requests} requests (expected ${expected}), peak RSS ${first.peakMb.toFixed(1)} MB, exit ${first.code}`,
  );
  console.log(
    `  rerun:     ${rerun.seconds.toFixed(2)} s wall, ${rerun.requests} requests (expected ${Math.ceil(count / 25)}), peak RSS ${rerun.peakMb.toFixed(1)} MB, exit ${rerun.code}`,
  );
  console.log(`  exercises.jsonl: ${lines} lines`);
  if (first.code !== 0) console.log(first.stderr);
} finally {
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGINT');
  await exited;
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
