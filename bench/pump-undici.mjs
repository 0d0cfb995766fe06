#!/usr/bin/env node
/**
 * The download engine without the CLI around it: undici's dispatch (src/http/body.ts,
 * what `exercises download` uses through Transport.dispatchStream) feeding pumpBody()
 * (src/media/download/body-pump.ts), no stream in between, into the same file sink (the file's
 * lock, `.part`, descriptor-checked rename) — but none of the transport's per-request work
 * (hooks, deadline, URL policy, retries) and the whole undici package rather than the CLI's
 * partial bundle. bench/download.mjs runs it as the tool `pump-undici`: the gap between it and
 * `ours` is what the CLI adds.
 *
 *   node bench/pump-undici.mjs <base-url> <api-key> <out-dir> <concurrency> <path>...
 *
 * Each path is fetched to <out-dir>/<path without its /videos/ prefix and /premium>.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';

const root = fileURLToPath(new URL('..', import.meta.url));
const { pumpBody } = await import(join(root, 'dist/media/download/body-pump.js'));
const { fileSink } = await import(join(root, 'dist/media/download/file-sink.js'));
const { checkMagic } = await import(join(root, 'dist/media/verify.js'));
const { dispatchBody } = await import(join(root, 'dist/http/body.js'));

const [base, key, out, concurrency, ...paths] = process.argv.slice(2);
const origin = new URL(base).origin;
const agent = new Agent({ keepAliveTimeout: 10_000 });

async function fetchOne(path) {
  const file = join(out, path.replace(/^\/videos\//, '').replace('/premium/', '/'));
  mkdirSync(dirname(file), { recursive: true });
  const sink = fileSink(file);
  await sink.claim('video', { waitMs: 60_000, what: path });
  try {
    const writer = await sink.open(0);
    const res = await dispatchBody(agent, { origin, path, method: 'GET', headers: { 'x-api-key': key } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    const { sourceError } = await pumpBody(res.body, writer, { checkHead: (first) => checkMagic('video', first, path) });
    if (sourceError) throw sourceError;
    await sink.finish('video', undefined, path);
  } finally {
    await sink.release();
  }
}

let next = 0;
await Promise.all(
  Array.from({ length: Number(concurrency) }, async () => {
    while (next < paths.length) await fetchOne(paths[next++]);
  }),
);
await agent.close();
