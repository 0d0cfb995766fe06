/**
 * Start-up only (docs/development.md "How start-up works"): the part of undici the CLI runs,
 * as one vendor file.
 *
 * undici's index requires all of undici (fetch, WebSocket, caches, mocks, proxies, HTTP/2:
 * ~730 KB, and node:http2, zlib, worker_threads, perf_hooks at load); the client uses one
 * Agent, its request() (src/http/agent.ts, transport.ts) and, for media bodies, its dispatch()
 * with a handler of ours (src/http/dispatch-body.ts; dispatch and compose are the Agent's own):
 * HTTP/1.1 GETs without a body. So the vendor file takes just those from undici's own files
 * (~280 KB, half of it llhttp's WebAssembly): `import('undici')` in the bundle gives { Agent }
 * with request() on every dispatcher, as the full module does. Measured with bench/startup.mjs:
 * one `show` ~70 ms faster than with the whole of undici. Anything else taken from undici must
 * be added here (the integration tests run the bundle).
 */
export const UNDICI_ENTRY = `const Dispatcher = require('undici/lib/dispatcher/dispatcher');
Dispatcher.prototype.request = require('undici/lib/api/api-request');
module.exports = { undici: { Agent: require('undici/lib/dispatcher/agent') } };`;

/**
 * Modules of undici that the entry above would still pull in and the client never runs,
 * replaced whole (their files are not edited):
 * - the HTTP/2 client: used only when a dispatcher is made with allowH2 (ours is not), and its
 *   file requires node:http2 at load (~5 ms);
 * - fetch's body extraction, which client-h1 requires only to send a FormData body (we send
 *   none), and which brings most of fetch with it;
 * - node:assert (~3 ms to load), used by these files only as assert(value[, message]): a
 *   two-line function with the same effect (checkUndiciAsserts checks nothing else is called);
 * - node:http (~4 ms to load, its server half included), read by these files at load for two
 *   values: the default limit on a response's header size, and IncomingMessage, compared
 *   with a stream's constructor when undici destroys it (a request body that is a node:http
 *   IncomingMessage gets its socket unset first). An object with the same two names gives the
 *   limit without loading node:http (Node's default, unless a --max-http-header-size flag is
 *   in force, when the real value is read: test/http/header-size.test.ts checks both), and
 *   IncomingMessage only when node:http is loaded already: no IncomingMessage can exist
 *   before, and this client sends no request body at all (checkUndiciHttp checks undici uses
 *   the class for that comparison alone).
 */

/** Node's default for --max-http-header-size, the same on Node 20, 22 and 24 (test/http/header-size.test.ts checks the built value). */
const NODE_DEFAULT_MAX_HEADER_SIZE = 16384;

const HTTP_STAND_IN = `let http;
const load = () => (http ??= require('node:http'));
const flagged = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\\s+/)].some((arg) => arg.startsWith('--max-http-header-size'));
module.exports = {
  get maxHeaderSize() { return flagged ? load().maxHeaderSize : ${NODE_DEFAULT_MAX_HEADER_SIZE}; },
  get IncomingMessage() { return process.moduleLoadList.includes('NativeModule http') ? load().IncomingMessage : class NotLoaded {}; },
};`;
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
    b.onResolve({ filter: /^(node:)?http$/ }, (args) => (args.namespace === 'http-stand-in' ? undefined : { path: 'http', namespace: 'http-stand-in' }));
    b.onLoad({ filter: /.*/, namespace: 'http-stand-in' }, () => ({ contents: HTTP_STAND_IN, loader: 'js' }));
    b.onResolve({ filter: /^(node:)?assert$/ }, () => ({ path: 'assert', namespace: 'assert-function' }));
    b.onLoad({ filter: /.*/, namespace: 'assert-function' }, () => ({
      contents:
        "module.exports = function assert (value, message) { if (!value) throw Object.assign(new Error(message || 'Assertion failed'), { code: 'ERR_ASSERTION' }); };",
      loader: 'js',
    }));
  },
};

/** Fails the build when the built undici calls more of node:assert than the function above provides. */
export function checkUndiciAsserts(source) {
  const used = source.match(/\bassert\.\w+/g);
  if (used) throw new Error(`undici now calls ${[...new Set(used)].join(', ')}: extend the assert function in scripts/bundle/undici-trim.mjs`);
}

/** Fails the build when the built undici uses node:http's IncomingMessage for more than the one comparison the stand-in above allows for. */
export function checkUndiciHttp(source) {
  const uses = source.match(/\bIncomingMessage\b/g) ?? [];
  const comparison = /Object\.getPrototypeOf\(\w+\)\.constructor===IncomingMessage/.test(source);
  // The stand-in's getter and its read, undici's import, and the comparison.
  if (uses.length !== 4 || !comparison)
    throw new Error("undici now uses node:http's IncomingMessage in more places: check the node:http stand-in in scripts/bundle/undici-trim.mjs");
}
