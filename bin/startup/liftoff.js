// Start-up only (docs/development.md "How start-up works"): V8's --liftoff-only, set when undici
// loads, and undici's own code cache.
//
// undici parses HTTP with llhttp compiled to WebAssembly. V8 11 compiles it with Liftoff
// (~1 ms), then again with TurboFan in the background, and process exit waits for that second
// compile: ~100 ms on a one-request command, more than the request itself (bench/startup.mjs).
// Liftoff code parses a few KiB of headers just as well. Of V8's flags only --liftoff-only
// removes the wait on Node 20 (--no-wasm-tier-up and --no-wasm-dynamic-tiering do not).
//
// But V8 checks every code cache against a hash of its flags: once any flag is set at run time,
// Node's own built-in modules no longer match their embedded code caches (each built-in loaded
// afterwards is compiled from source: +15 ms on `--help`), nor does a cache made before. So the
// flag is set at one fixed point, only in runs that send a request, when the bundle requires
// undici (the vendor file, scripts/bundle.mjs): after the bundle's code cache, if it needs
// writing, has been written under the flags it is read with, and after the built-ins undici
// uses are loaded; then undici itself is compiled, with a code cache of its own made and read
// under the flag (~10 ms less per request-sending command). Commands that send nothing never
// set it. bench/bare-client.cjs loads undici through loadUndici() too.
'use strict';

const path = require('node:path');
const { loadCached } = require('./code-cache.js');

const UNDICI = path.join(__dirname, '..', '..', 'dist', 'bundle', 'vendor', 'undici.cjs');

/** The built-ins undici's files require as they load (a list for speed only: one missing is just compiled without its cache). */
const UNDICI_BUILTINS = [
  'node:assert',
  'node:http',
  'node:net',
  'node:stream',
  'node:events',
  'node:buffer',
  'node:util',
  'node:async_hooks',
  'node:diagnostics_channel',
  'node:querystring',
];

/** Loads the built-ins undici needs, then sets --liftoff-only: from here on V8's flags differ. */
function setLiftoffOnly() {
  for (const builtin of UNDICI_BUILTINS) require(builtin);
  require('node:v8').setFlagsFromString('--liftoff-only');
}

/** Sets the flag and runs the bundled undici with its code cache (written at exit). */
function loadUndici() {
  setLiftoffOnly();
  const undici = loadCached(UNDICI, { name: 'vendor-undici.cjs' });
  process.once('exit', undici.writeCache);
  return undici.run();
}

module.exports = { loadUndici };
