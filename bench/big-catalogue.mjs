#!/usr/bin/env node
/**
 * A catalogue of 150,000 records (scripts/big-catalogue.mjs, from the sample's records, and from
 * ../shared/catalogues/public-domain when it is there), measured with the built CLI: wall time,
 * CPU and peak RSS of `--catalogue <dir> ids --all` (first run, then with the record index),
 * of `serve <dir>` while `ids --all` lists it over HTTP, and of `query --all --pick` with no
 * terminal; then `download --all --images --dry-run` over one page of 150,000 summaries.
 * docs/performance.md "Big local catalogues" holds the figures.
 *
 *   npm run build && node bench/big-catalogue.mjs [--records 150000] [--node <path>]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeNodeOption } from './lib.mjs';
import { writeBigCatalogue } from '../scripts/big-catalogue.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const at = argv.indexOf('--records');
const RECORDS = at >= 0 ? Number(argv[at + 1]) : 150_000;
const CLI = join(root, 'bin', 'exercises.js');
const PUBLIC_DOMAIN = join(root, '..', 'shared', 'catalogues', 'public-domain', 'exercises.jsonl');
const hasTimeV = existsSync('/usr/bin/time');

const scratch = mkdtempSync(join(tmpdir(), 'exercises-bench-big-'));
const env = { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CACHE_HOME: join(scratch, 'cache'), XDG_CONFIG_HOME: join(scratch, 'config'), NO_COLOR: '1' };

/**
 * Runs the CLI with `args` to its end: exit code, stdout's line count, wall seconds, CPU seconds and
 * peak RSS (MB) from /usr/bin/time -v, else the kernel's high-water mark sampled every 20 ms.
 * `onOutput` sees stdout as it comes, with the process (time's child where time runs it).
 */
function run(args, { detached = false, onOutput } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const command = hasTimeV ? ['/usr/bin/time', ['-v', node, CLI, ...args]] : [node, [CLI, ...args]];
    const child = spawn(command[0], command[1], { env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let lines = 0;
    let hwm = 0;
    const timer = hasTimeV
      ? undefined
      : setInterval(() => {
          try {
            hwm = Math.max(hwm, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
          } catch {}
        }, 20);
    child.stdout.on('data', (b) => {
      for (const byte of b) if (byte === 10) lines++;
      onOutput?.(String(b), child.pid);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const figure = (name) => Number(new RegExp(`${name}: ([\\d.]+)`).exec(stderr)?.[1] ?? NaN);
      resolve({
        code,
        lines,
        seconds: (performance.now() - started) / 1000,
        cpu: figure('User time \\(seconds\\)') + figure('System time \\(seconds\\)'),
        rssMb: (hasTimeV ? figure('Maximum resident set size \\(kbytes\\)') : hwm) / 1024,
      });
    });
  });
}

const row = (what, r) =>
  console.log(
    `${what.padEnd(56)} exit ${String(r.code).padEnd(3)} ${String(r.lines).padStart(7)} lines ${r.seconds.toFixed(1).padStart(6)} s wall ${r.cpu.toFixed(1).padStart(5)} s CPU ${r.rssMb.toFixed(0).padStart(5)} MB peak RSS`,
  );

/** `serve dir` on a free port while `ids --all` lists it; then SIGTERM to serve (not to time, which then reports). */
async function served(dir) {
  let listening;
  const url = new Promise((resolve) => (listening = resolve));
  let pid;
  const serve = run(['serve', '--port', '0', dir], {
    onOutput: (text, spawned) => {
      pid = spawned;
      const found = /Listening on (\S+)/.exec(text)?.[1];
      if (found) listening(found);
    },
  });
  const client = await run(['--base-url', await url, '--api-key', 'sandbox-free', 'ids', '--all']);
  const serveNode = hasTimeV ? Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) : pid;
  process.kill(serveNode, 'SIGTERM');
  return { client, serve: await serve };
}

console.log(`${RECORDS} records; node ${nodeVersion}; ${hasTimeV ? '/usr/bin/time -v' : 'VmHWM sampled'}`);
try {
  const sources = [['sample', undefined], ...(existsSync(PUBLIC_DOMAIN) ? [['public-domain', PUBLIC_DOMAIN]] : [])];
  for (const [name, source] of sources) {
    const dir = join(scratch, name);
    await writeBigCatalogue(dir, RECORDS, source);
    row(`${name}: --catalogue ids --all (first run)`, await run(['--catalogue', dir, 'ids', '--all']));
    row(`${name}: --catalogue ids --all (record index kept)`, await run(['--catalogue', dir, 'ids', '--all']));
    const firstId = JSON.parse(readFileSync(join(dir, 'exercises.jsonl'), 'utf8').slice(0, 4096).split('\n')[0]).id;
    row(`${name}: --catalogue show <one id> (record index kept)`, await run(['--catalogue', dir, 'show', firstId]));
    row(`${name}: --catalogue query --all --pick, no terminal`, await run(['--catalogue', dir, 'query', '--all', '--pick'], { detached: true }));
    const { client, serve } = await served(dir);
    row(`${name}: ids --all from serve (the client)`, client);
    row(`${name}: serve while it is listed`, serve);
  }

  // One page of 150,000 summaries with a picture each, as test/hostile/stack-safety sends it.
  const summaries = Array.from({ length: RECORDS }, (_, i) => ({ id: `E${i}`, name: 'x', premiumImages: ['a.png'] }));
  const page = JSON.stringify({ exercises: summaries, pagination: { total: RECORDS, next: null } });
  const pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(page));
  await new Promise((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const args = [
    '--base-url',
    `http://127.0.0.1:${pages.address().port}`,
    '--api-key',
    'k',
    '--no-cache',
    'download',
    '--all',
    '--images',
    '--dry-run',
    '--dir',
  ];
  row('download --all --images --dry-run, one page', await run([...args, join(scratch, 'out'), '--format', 'json']));
  pages.close();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
