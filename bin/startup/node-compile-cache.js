// Start-up only (docs/development.md "How start-up works"): the bundle run with Node's own
// compile cache (module.enableCompileCache, Node 22.1+) instead of the launcher's code-cache
// files. Measured slower than the launcher's files on Node 22 and 24 (bench/startup.mjs
// --compare-caches, docs/performance.md), so it is off: NODE_COMPILE_CACHE_FROM in
// bin/exercises.js is the first Node major version that would use it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { ownButLoose, privateDir, userCacheDir } = require('./private-files.js');
const { setLiftoffOnly } = require('./liftoff.js');

/**
 * Runs `bundle` with Node's compile cache (when this Node has one), in a directory checked as the launcher's own
 * (private, the user's, not a link: see private-files.js), else with no cache. undici still
 * loads only after V8's --liftoff-only is set (liftoff.js): the bundle's require of it is caught.
 */
function runBundleWithNodeCache(bundle) {
  const Module = require('node:module');
  try {
    const dir = path.join(userCacheDir(), 'compile-cache');
    // Node reads whatever files are inside without checking who wrote them: a directory of
    // the user's that was ever open to others is emptied before it is trusted again.
    const before = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (before !== undefined && ownButLoose(before)) fs.rmSync(dir, { recursive: true });
    if (typeof Module.enableCompileCache === 'function' && privateDir(dir)) Module.enableCompileCache(dir);
  } catch {
    // no cache
  }
  const load = Module._load;
  Module._load = function loadFirstSettingFlags(request, parent, isMain) {
    if (request === './vendor/undici.cjs' && parent?.filename === bundle) {
      Module._load = load;
      setLiftoffOnly();
    }
    return load.call(this, request, parent, isMain);
  };
  return require(bundle);
}

module.exports = { runBundleWithNodeCache };
