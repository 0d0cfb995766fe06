/**
 * Start-up only (docs/development.md "How start-up works"): the part of undici the CLI runs,
 * as one vendor file.
 *
 * undici's index requires all of undici (fetch, WebSocket, caches, mocks, proxies, HTTP/2:
 * ~730 KB, and node:http2, zlib, worker_threads, perf_hooks at load); the client uses one
 * Agent (src/http/attempt.ts) and its dispatch() with a handler of ours (src/http/body.ts;
 * dispatch and compose are the Agent's own):
 * HTTP/1.1 GETs without a body. So the vendor file takes just those from undici's own files
 * (~280 KB, half of it llhttp's WebAssembly): `import('undici')` in the bundle gives { Agent }
 * with request() on every dispatcher, as the full module does (a forward proxy's tunnel is our
 * own connector, src/http/proxy-tunnel.ts). Measured with bench/startup.mjs:
 * one `show` ~70 ms faster than with the whole of undici. Anything else taken from undici must
 * be added here (the integration tests run the bundle).
 */
export const UNDICI_ENTRY = `const Dispatcher = require('undici/lib/dispatcher/dispatcher');
Dispatcher.prototype.request = require('undici/lib/api/api-request');
module.exports = {
  undici: {
    Agent: require('undici/lib/dispatcher/agent'),
  },
};`;

/**
 * Modules of undici that the entry above would still pull in and the client never runs,
 * replaced whole (their files are not edited):
 * - the HTTP/2 client: used only when a dispatcher is made with allowH2 (ours is not), and its
 *   file requires node:http2 at load (~5 ms);
 * - fetch's body extraction, which client-h1 requires only to send a FormData body (we send
 *   none), and which brings most of fetch with it.
 *
 * These are undici's private paths (lib/…), not its public API: package.json pins undici to
 * one minor version (~7.x.y) so an update that moves them is taken on purpose, with this file
 * checked against it.
 */
export const undiciTrim = {
  name: 'undici-trim',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: "module.exports = function connectH2 () { throw new Error('HTTP/2 is not part of this build of undici (scripts/bundle/undici-trim.mjs)'); };",
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]web[\\/]fetch[\\/]body\.js$/ }, () => ({
      contents:
        "module.exports = { extractBody () { throw new Error('Request bodies are not part of this build of undici (scripts/bundle/undici-trim.mjs)'); } };",
      loader: 'js',
    }));
  },
};
