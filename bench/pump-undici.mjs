#!/usr/bin/env node
/**
 * The body pump with another body source: undici's dispatch handler feeding pumpBody()
 * (src/media/download/body-pump.ts) directly, no stream in between, into the same file sink as
 * `exercises download` (the file's lock, `.part`, descriptor-checked rename). bench/download.mjs
 * runs it as the tool `pump-undici`: what the download engine can do once the transport hands
 * over chunks itself, measured beside the CLI (node:http today) and aria2c.
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

const [base, key, out, concurrency, ...paths] = process.argv.slice(2);
const origin = new URL(base).origin;
const agent = new Agent({ keepAliveTimeout: 10_000 });

/**
 * A BodySource over one dispatch: undici calls onData with each chunk (a view of the socket's
 * read, not copied) and pauses the socket when onData returns false, until resume() is called.
 * Chunks that come before the pump has started are held (and the socket paused) meanwhile.
 */
function dispatchSource() {
  let consumer;
  let held = [];
  let ended;
  let resume = () => {};
  let abort = () => {};
  return {
    handler: {
      onConnect(abortRequest) {
        abort = abortRequest;
      },
      onHeaders(_status, _headers, resumeSocket) {
        resume = resumeSocket;
        return true;
      },
      onData(chunk) {
        if (consumer) return consumer.onData(chunk);
        held.push(chunk);
        return false;
      },
      onComplete() {
        if (consumer) consumer.onEnd();
        else ended = { ok: true };
      },
      onError(err) {
        if (consumer) consumer.onError(err);
        else ended = { err };
      },
    },
    source: {
      start(c) {
        consumer = c;
        let flowing = true;
        for (const chunk of held) flowing = c.onData(chunk) && flowing;
        held = [];
        if (ended) queueMicrotask(() => (ended.ok ? c.onEnd() : c.onError(ended.err)));
        else if (flowing) resume();
        return { resume: () => resume(), destroy: () => abort(new Error('stopped')) };
      },
    },
  };
}

async function fetchOne(path) {
  const file = join(out, path.replace(/^\/videos\//, '').replace('/premium/', '/'));
  mkdirSync(dirname(file), { recursive: true });
  const sink = fileSink(file);
  await sink.claim('video', { waitMs: 60_000, what: path });
  try {
    const writer = await sink.open(0);
    const { source, handler } = dispatchSource();
    const done = pumpBody(source, writer, { checkHead: (first) => checkMagic('video', first, path) });
    agent.dispatch({ origin, path, method: 'GET', headers: { 'x-api-key': key } }, handler);
    const { sourceError } = await done;
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
