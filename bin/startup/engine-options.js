// What the launcher asks of Node before the CLI loads (docs/development.md "How start-up works"):
// Node's own compile cache, kept in the user's cache directory, and V8's --liftoff-only on Node 20.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** The user's cache directory, by the rule of src/config/parsers.ts userDirs (env-paths'). */
function userCacheDir() {
  const named = process.platform === 'win32' ? process.env.USERPROFILE : process.env.HOME;
  const home = named || require('node:os').homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'exercises');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'exercises', 'Cache');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'exercises');
}

/**
 * Node's compile cache (module.enableCompileCache, Node 22.1 and later; Node 20 has none) in
 * `compile-cache/` of the user's cache directory rather than the shared temporary directory:
 * code read from it runs as the user, so it lives under the user's own cache directory, made
 * 0700 when it is created (an existing one is used as it is). Any trouble only means no cache.
 */
function enableCompileCache() {
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache !== 'function') return;
  try {
    const dir = path.join(userCacheDir(), 'compile-cache');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    enableCompileCache(dir);
  } catch {
    // no cache directory: compiled as usual
  }
}

/**
 * V8 11 (Node 20) recompiles undici's WebAssembly HTTP parser with TurboFan in the background
 * and process exit waits for it: about a hundred ms on every command that sends a request.
 * Liftoff's code parses a few KiB of headers as well. Later V8s (Node 22 on) do not make exit wait.
 */
function liftoffOnNode20() {
  if (process.versions.node.startsWith('20.')) require('node:v8').setFlagsFromString('--liftoff-only');
}

module.exports = { enableCompileCache, liftoffOnNode20 };
