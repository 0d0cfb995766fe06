/**
 * What the side-by-side benchmarks share: timing a whole node process, medians, running the
 * cases interleaved (so drift hits every case alike), and the verdict table against targets.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Takes `--node <path>` out of `argv` (changed in place): the Node binary the measured
 * processes run, e.g. Node 22 or 24 kept by .ci/run, default this one. Returns it with its
 * version, which every bench prints beside its figures.
 */
export function takeNodeOption(argv) {
  const at = argv.indexOf('--node');
  const node = at >= 0 ? argv.splice(at, 2)[1] : process.execPath;
  if (node === undefined) throw new Error('--node needs the path of a Node binary');
  return { node, nodeVersion: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() };
}

/** Wall time of one `node <args>` child, in ms (and stdout's line count when asked); `node`: another Node binary. */
export function timeNode(args, env, { countLines = false, node = process.execPath } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', countLines ? 'pipe' : 'ignore', 'pipe'] });
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

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Runs every case `warmups + runs` times, round by round; odd rounds go in reverse order so
 * no case always runs first. Returns the timed samples (ms) per case. `node`: the Node binary
 * to run them with (default: this one). A case may bring its own `env`, and a `before()` run
 * untimed ahead of each of its runs (to empty a cache, say), and `pipe: true` to write its
 * output into a pipe (as `exercises … | less` does) instead of /dev/null.
 */
export async function interleaved(cases, { runs, warmups, env, node }) {
  const samples = cases.map(() => []);
  const forward = cases.map((_, j) => j);
  for (let i = 0; i < warmups + runs; i++) {
    for (const j of i % 2 === 0 ? forward : [...forward].reverse()) {
      await cases[j].before?.();
      const { ms } = await timeNode(cases[j].args, cases[j].env ?? env, { node, countLines: cases[j].pipe === true });
      if (i >= warmups) samples[j].push(ms);
    }
  }
  return samples;
}

/**
 * Prints one line per case: median, ratio to the first case, and, for a case with a target,
 * its ratio to its reference (`against`: the name of another case, else the first case) and
 * the verdict; `extra` adds a column (title, (medianMs) => text). Returns true when every
 * target is met.
 */
export function printVerdicts(cases, samples, { nameWidth = 26, extra } = {}) {
  const medians = samples.map(median);
  const base = medians[0];
  const ratioTitle = `  x ${cases[0].name}`;
  const head = `${'command'.padEnd(nameWidth)}${'median ms'.padStart(10)}${extra ? extra.title.padStart(9) : ''}${ratioTitle}   target`;
  console.log(head);
  let ok = true;
  for (const [j, c] of cases.entries()) {
    const m = medians[j];
    let target = '';
    if (c.target !== undefined) {
      const ref = c.against === undefined ? 0 : cases.findIndex((k) => k.name === c.against);
      if (ref < 0) throw new Error(`${c.name}: no case named ${c.against}`);
      const ratio = m / medians[ref];
      const met = ratio <= c.target;
      if (!met) ok = false;
      target = `${ratio.toFixed(2)}x ${cases[ref].name} (≤${c.target}x) ${met ? 'ok' : 'OVER'}`;
    }
    console.log(
      `${c.name.padEnd(nameWidth)}${m.toFixed(1).padStart(10)}${extra ? extra.cell(m).padStart(9) : ''}${`${(m / base).toFixed(2)}x`.padStart(ratioTitle.length)}   ${target}`,
    );
  }
  return ok;
}

/**
 * The environment measured processes start with: PATH and a private HOME with its XDG
 * directories, nothing else. Variables such as NODE_EXTRA_CA_CERTS (which alone makes
 * `node -e 0` three times slower here) or NODE_OPTIONS would otherwise hide every ratio.
 */
export function minimalEnv(home, extra = {}) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...extra,
  };
}

/**
 * A week of ordinary use, as CLI argument lists: query by muscle, show three records, the same
 * query again, one record in de-DE, `ids --all`, download the chest media into `mediaDir`.
 * bench/requests.mjs runs it twice for one user; bench/team.mjs for five users behind a proxy.
 */
export function weekWorkload(mediaDir) {
  return [
    ['query', '--muscle', 'chest'],
    ['show', 'Barbell_Bench_Press'],
    ['show', 'Push_Up'],
    ['show', 'Pull_Up'],
    ['query', '--muscle', 'chest'],
    ['--lang', 'de-DE', 'show', 'Barbell_Bench_Press'],
    ['ids', '--all'],
    ['download', '--muscle', 'chest', '--dir', mediaDir, '--quiet'],
  ];
}

/** The URL a `serve` child prints (`Listening on <url>`) on its stdout; rejects if it exits first, naming `where` to look. */
export function listeningUrl(child, where) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (b) => {
      out += b;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the proxy exited ${code}: ${where()}`)));
  });
}
