/**
 * A memory sampler for the benches, loaded into the measured process with
 * `node --require bench/memory-sampler.cjs …` (bench/download.mjs --memory does so).
 *
 * Every 20 ms (MEMORY_SAMPLER_MS to change it) it reads process.memoryUsage() and keeps the
 * peak of each figure, and the figures of the first sample (the process before the work:
 * node, the bundle, what it loaded at start). At exit it writes one line to stderr:
 *
 *   memory-sampler {"samples":…,"first":{rss,heapUsed,…},"peak":{rss,heapTotal,heapUsed,external,arrayBuffers,rssAnon,rssFile}}
 *
 * (bytes), which the bench parses. With MEMORY_SAMPLER_TRACE=1 it also writes every sample
 * (ms since start, then RSS, heap total and used, array buffers, external, anonymous and file RSS, in MiB) to stderr as it takes
 * it: where the memory grows over a run. The timer is unref'd: it never keeps the process alive.
 */
'use strict';

const { readFileSync } = require('node:fs');

const every = Number(process.env.MEMORY_SAMPLER_MS) || 20;
const KEYS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers', 'rssAnon', 'rssFile'];
const peak = Object.fromEntries(KEYS.map((k) => [k, 0]));
let first;
let samples = 0;
const trace = process.env.MEMORY_SAMPLER_TRACE === '1';
const started = performance.now();
const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);

/**
 * RSS split as Linux counts it (/proc/self/status): anonymous memory (heaps, buffers, malloc)
 * and file pages (the node binary's code and data as far as it ran); none elsewhere.
 */
function rssSplit() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile') };
  } catch {
    return {};
  }
}

function sample() {
  const m = { ...process.memoryUsage(), ...rssSplit() };
  samples++;
  first ??= Object.fromEntries(KEYS.map((k) => [k, m[k]]));
  for (const k of KEYS) if (m[k] > peak[k]) peak[k] = m[k];
  if (trace) {
    const ms = (performance.now() - started).toFixed(0);
    process.stderr.write(
      `memory-sample ${ms} ms rss ${mib(m.rss)} heapTotal ${mib(m.heapTotal)} heapUsed ${mib(m.heapUsed)} arrayBuffers ${mib(m.arrayBuffers)} external ${mib(m.external)} rssAnon ${mib(m.rssAnon)} rssFile ${mib(m.rssFile)}\n`,
    );
  }
}

sample();
setInterval(sample, every).unref();
process.on('exit', () => {
  sample();
  process.stderr.write(`memory-sampler ${JSON.stringify({ samples, first, peak })}\n`);
});
