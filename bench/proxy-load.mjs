#!/usr/bin/env node
/**
 * Cache hits under load (issue 30, "hits at nginx's pace"): autocannon at 50 connections on
 * one cached record, against `exercises serve --upstream` (a child process, its access log
 * going to a file as docs/team.md shows) and, where nginx is installed, against nginx with
 * `proxy_cache` in front of the same upstream (a config generated in a temp dir, ports of its
 * own, no root needed). The project's catalogue server is the upstream, in this process. The
 * two are loaded in turn, round after round (odd rounds nginx first), so drift of a busy
 * machine hits both alike. Where redis-server is installed, two replicas sharing it
 * (--shared-state) are loaded too, at once, half the connections each: hits through two replicas
 * beside one (the record filled through the first is a hit on the second, not an upstream request).
 *
 * Prints per round the rate (requests/s), p99 latency, CPU time per answer (from /proc: the
 * figure a busy machine changes least) and errors of each, the proxy's RSS after its load, the
 * load average, and the medians against the goals: rate ≥ 0.5× nginx's,
 * p99 ≤ 10 ms, RSS ≤ 128 MB.
 *
 * Usage: npm run build && node bench/proxy-load.mjs [--seconds 10] [--rounds 3] [--connections 50]
 *        [--nginx-workers 1|auto] [--node <path>]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { listeningUrl, median, minimalEnv, takeNodeOption } from './lib.mjs';

const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const { values } = parseArgs({
  args: argv,
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    // nginx's own default: one process, as the proxy is one; `auto` gives it a worker per core.
    'nginx-workers': { type: 'string', default: '1' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const GOALS = { rateVsNginx: 0.5, p99Ms: 10, rssMb: 128 };

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'exercises.js');
const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));
const { sampleCatalogueDir, SANDBOX_API_KEY: UPSTREAM_KEY } = await import(join(root, 'dist', 'server', 'sandbox.js'));
const CLIENT_KEY = 'bench-client-key';
const TARGET = '/exercise/Barbell_Bench_Press';

/** A port free now on 127.0.0.1 (for nginx, which is told its port in its config). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system) of `pid` and its children processes (nginx's workers), ms; NaN without /proc. */
function cpuMs(pid) {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return [pid, ...children].reduce((sum, p) => {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return sum + ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    }, 0);
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

function nginxBinary() {
  const found = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim().split('\n')[0] : undefined;
}

/** nginx with proxy_cache in front of `upstreamUrl`, all its files under `dir`. */
async function startNginx(binary, dir, upstreamUrl) {
  const port = await freePort();
  mkdirSync(join(dir, 'cache'), { recursive: true });
  mkdirSync(join(dir, 'temp'), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    // As root, nginx's workers would run as nobody, who cannot enter the private temp dir: they stay this user.
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes ${values['nginx-workers']};
events { worker_connections 1024; }
http {
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${join(dir, 'temp')};
  proxy_temp_path ${join(dir, 'temp')};
  fastcgi_temp_path ${join(dir, 'temp')};
  uwsgi_temp_path ${join(dir, 'temp')};
  scgi_temp_path ${join(dir, 'temp')};
  proxy_cache_path ${join(dir, 'cache')} keys_zone=answers:10m;
  upstream catalogue { server ${new URL(upstreamUrl).host}; keepalive 8; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://catalogue;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-API-Key ${UPSTREAM_KEY};
      proxy_cache answers;
      proxy_cache_key $request_uri;
      proxy_cache_valid 200 10m;
      proxy_cache_lock on;
      proxy_ignore_headers Cache-Control Expires Vary;
    }
  }
}
`,
  );
  const child = spawn(binary, ['-p', dir, '-c', conf, '-g', `daemon off; pid ${join(dir, 'nginx.pid')}; error_log stderr;`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (b) => (err += b));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${err}`);
    const ok = await fetch(url + TARGET)
      .then((r) => r.arrayBuffer().then(() => r.ok))
      .catch(() => false);
    if (ok) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not answer on ${url}: ${err}`);
}

/** redis-server on a free port, saving nothing, its files under `dir`; undefined where it is not installed. */
async function startRedis(dir) {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (b) => (out += b) && out.includes('Ready to accept connections') && resolve());
    child.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, child };
}

/** `exercises serve --upstream` as a child, its access log (stderr) appended to a file. */
async function startProxy(home, upstreamUrl, extra = []) {
  mkdirSync(home, { recursive: true });
  const log = openSync(join(home, 'access.log'), 'a');
  const child = spawn(node, [cli, 'serve', '--upstream', upstreamUrl, '--port', '0', '--key', `${CLIENT_KEY}:premium`, ...extra, join(home, 'mirror')], {
    env: minimalEnv(home, { EXERCISES_UPSTREAM_KEY: UPSTREAM_KEY }),
    stdio: ['ignore', 'pipe', log],
  });
  const url = await listeningUrl(child, () => `see ${join(home, 'access.log')}`);
  return { url, child };
}

function load(url, headers, seconds, connections = CONNECTIONS) {
  return autocannon({ url: url + TARGET, connections, duration: seconds, headers });
}

/** Both replicas loaded at once, half the connections each, as one result: rates and counts added, the worse p99. */
async function loadBoth(urls, headers, seconds) {
  const results = await Promise.all(urls.map((url) => load(url, headers, seconds, Math.ceil(CONNECTIONS / urls.length))));
  const sum = (pick) => results.reduce((n, r) => n + pick(r), 0);
  return {
    requests: { average: sum((r) => r.requests.average), total: sum((r) => r.requests.total) },
    latency: { p99: Math.max(...results.map((r) => r.latency.p99)) },
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
  };
}

function figures(result, cpuSpentMs) {
  return {
    rate: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    // CPU per answer: what the machine's other load changes least (the rate follows the share of CPU each gets).
    cpuUs: (cpuSpentMs * 1000) / result.requests.total,
  };
}

const upstream = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });
const work = mkdtempSync(join(tmpdir(), 'exercises-proxy-load-'));
const children = [];
try {
  const proxyHome = join(work, 'proxy');
  mkdirSync(proxyHome, { recursive: true });
  const proxy = await startProxy(proxyHome, upstream.url);
  children.push(proxy.child);
  const proxyHeaders = { 'x-api-key': CLIENT_KEY };
  const first = await fetch(proxy.url + TARGET, { headers: proxyHeaders });
  if (first.status !== 200) throw new Error(`the proxy answered ${first.status}: ${await first.text()}`);
  await first.arrayBuffer();

  const binary = nginxBinary();
  const nginx = binary ? await startNginx(binary, join(work, 'nginx'), upstream.url) : undefined;
  if (nginx) children.push(nginx.child);

  const redis = await startRedis(join(work, 'redis'));
  let replicas;
  let replicaUpstream;
  if (redis) {
    children.push(redis.child);
    replicas = [];
    for (const name of ['replica-a', 'replica-b']) {
      const replica = await startProxy(join(work, name), upstream.url, ['--shared-state', redis.url]);
      children.push(replica.child);
      replicas.push(replica);
    }
    // Filled through the first, a hit on the second: no upstream request.
    const before = upstream.requests.length;
    for (const replica of replicas) await (await fetch(replica.url + TARGET, { headers: proxyHeaders })).arrayBuffer();
    replicaUpstream = upstream.requests.length - before;
  }

  const cases = [{ name: 'proxy', run: (s) => load(proxy.url, proxyHeaders, s), pids: [proxy.child.pid], rss: true }];
  if (replicas)
    cases.push({
      name: 'proxy×2',
      run: (s) =>
        loadBoth(
          replicas.map((r) => r.url),
          proxyHeaders,
          s,
        ),
      pids: replicas.map((r) => r.child.pid),
    });
  if (nginx) cases.push({ name: 'nginx', run: (s) => load(nginx.url, {}, s), pids: [nginx.child.pid] });

  // Warm-up: both JITs and caches settled before anything is counted.
  for (const c of cases) await c.run(2);
  const upstreamBefore = upstream.requests.length;

  console.log(
    `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, GET ${TARGET} (cached), node ${nodeVersion}` +
      (nginx
        ? `, nginx ${spawnSync(binary, ['-v'], { encoding: 'utf8' })
            .stderr.trim()
            .replace(/^nginx version: /, '')} (worker_processes ${values['nginx-workers']})`
        : ', nginx not installed') +
      (replicas ? `; two replicas sharing redis-server (${replicaUpstream} upstream request for their first answers)` : ', redis-server not installed'),
  );
  const samples = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      const cpu = () => c.pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
      const cpuBefore = cpu();
      const result = await c.run(SECONDS);
      const f = figures(result, cpu() - cpuBefore);
      if (c.rss) f.rss = rssMb(c.pids[0]);
      samples[c.name].push(f);
      const load1 = loadavg()[0].toFixed(1);
      console.log(
        `round ${round + 1} ${c.name.padEnd(7)} ${f.rate.toFixed(0).padStart(6)} req/s  p99 ${String(f.p99).padStart(3)} ms  CPU ${f.cpuUs.toFixed(0).padStart(4)} µs/answer  errors ${f.errors}` +
          (f.rss !== undefined ? `  RSS ${f.rss.toFixed(1)} MB` : '') +
          `  load ${load1}`,
      );
    }
  }
  const upstreamDuring = upstream.requests.length - upstreamBefore;

  const med = (name, field) => median(samples[name].map((s) => s[field]));
  const proxyRate = med('proxy', 'rate');
  const rows = [
    ['proxy rate', `${proxyRate.toFixed(0)} req/s`, ''],
    ['proxy CPU per answer', `${med('proxy', 'cpuUs').toFixed(0)} µs`, ''],
    ['proxy p99', `${med('proxy', 'p99')} ms`, `≤ ${GOALS.p99Ms} ms`, med('proxy', 'p99') <= GOALS.p99Ms],
    ['proxy RSS after load', `${med('proxy', 'rss').toFixed(1)} MB`, `≤ ${GOALS.rssMb} MB`, med('proxy', 'rss') <= GOALS.rssMb],
  ];
  if (replicas) {
    rows.push(
      ['two replicas rate', `${med('proxy×2', 'rate').toFixed(0)} req/s`, ''],
      ['two replicas p99', `${med('proxy×2', 'p99')} ms`, ''],
      ['two replicas CPU/answer', `${med('proxy×2', 'cpuUs').toFixed(0)} µs`, ''],
    );
  }
  if (nginx) {
    const nginxRate = med('nginx', 'rate');
    rows.push(
      ['nginx rate', `${nginxRate.toFixed(0)} req/s`, ''],
      ['nginx p99', `${med('nginx', 'p99')} ms`, ''],
      ['nginx CPU per answer', `${med('nginx', 'cpuUs').toFixed(0)} µs`, ''],
    );
    rows.push(['proxy / nginx rate', `${(proxyRate / nginxRate).toFixed(2)}×`, `≥ ${GOALS.rateVsNginx}×`, proxyRate / nginxRate >= GOALS.rateVsNginx]);
  }
  console.log(
    `\nmedians of ${ROUNDS} rounds (load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; upstream requests during the load: ${upstreamDuring})`,
  );
  for (const [name, value, goal, met] of rows) {
    console.log(`${name.padEnd(22)} ${value.padStart(12)}  ${goal}${met === undefined ? '' : met ? '  met' : '  NOT met'}`);
  }
  const errors = Object.values(samples)
    .flat()
    .reduce((n, s) => n + s.errors, 0);
  if (errors > 0) console.log(`\n${errors} errors, timeouts or non-2xx answers during the load.`);
  process.exitCode = errors === 0 && upstreamDuring === 0 && (replicaUpstream ?? 1) === 1 ? 0 : 1;
} finally {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  await upstream.close();
  rmSync(work, { recursive: true, force: true });
}
