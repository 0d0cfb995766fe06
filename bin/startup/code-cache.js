// Start-up only (docs/development.md "How start-up works"): runs a CommonJS file with a V8
// code cache of its own. Compiling the bundle and the functions a command runs costs several
// ms on every start, and Node 20 has no module.enableCompileCache() (Node 22.1+; measured
// slower than this on 22 and 24 too: docs/performance.md).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { privateDir, readPrivate, userCacheDir, writePrivate } = require('./private-files.js');

/**
 * Compiles and runs `file` as Node's require() would, but with a V8 code cache kept in the
 * user cache directory as `code-cache/<name>.v8`. The cache is keyed by Node version,
 * architecture, and the file's size and mtime; V8 also rejects data from another V8, for other
 * source or made under other V8 flags, and then the file is simply compiled anew. Any trouble
 * with the cache directory only means no cache.
 *
 * Returns { run, writeCache, unwritten, module }: `run()` runs the file and gives its exports;
 * `writeCache()` writes the cache when this run must (none yet, or rejected), once, renamed
 * into place so a concurrent run never reads half a file; `cacheName(exports)` may refine the
 * name at write time; `requireFor(require)` may wrap the require() the file is given.
 */
function loadCached(file, { name, cacheName = () => name, requireFor }) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const key = Buffer.from(`${process.version} ${process.arch} ${stat.size} ${stat.mtimeMs}\n`);
  const cacheDir = path.join(userCacheDir(), 'code-cache');
  let cachedData;
  try {
    const stored = readPrivate(cacheDir, `${name}.v8`);
    if (stored !== undefined && stored.subarray(0, key.length).equals(key)) cachedData = stored.subarray(key.length);
  } catch {
    // no cache yet
  }
  // The bundle has no import() (scripts/bundle.mjs sees to it): Node 20 cannot run one here.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const loaded = new Module(file, module);
  loaded.filename = file;
  loaded.paths = Module._nodeModulePaths(path.dirname(file));
  let unwritten = cachedData === undefined || script.cachedDataRejected;
  const writeCache = () => {
    if (!unwritten) return;
    unwritten = false;
    try {
      if (privateDir(cacheDir)) writePrivate(cacheDir, `${cacheName(loaded.exports)}.v8`, Buffer.concat([key, script.createCachedData()]));
    } catch {
      // a read-only or missing cache directory: run without a cache
    }
  };
  const run = () => {
    const require = (requireFor ?? ((r) => r))(Module.createRequire(file));
    script.runInThisContext().call(loaded.exports, loaded.exports, require, loaded, file, path.dirname(file));
    loaded.loaded = true;
    return loaded.exports;
  };
  return { run, writeCache, unwritten: () => unwritten, module: loaded };
}

module.exports = { loadCached };
