// Start-up only (docs/development.md "How start-up works"): runs the bundle
// (dist/bundle/cli.cjs) with a code cache per command, and gives its require() the vendor
// files that need care (undici and its V8 flag, the lock library with a code cache of its own).
'use strict';

const path = require('node:path');
const { loadCached } = require('./code-cache.js');
const { loadUndici } = require('./liftoff.js');

const BUNDLE = path.join(__dirname, '..', '..', 'dist', 'bundle', 'cli.cjs');

/**
 * The vendor file a request-sending command loads on every run besides undici: the cache
 * rules, http-cache-semantics (src/cache/headers.ts judges each answer it stores), compiled
 * from source each time without a cache of its own. It gets its code cache as the bundle does, named after the V8 flags in force when it
 * loads (a cache made under other flags would be rejected), and written before the flags
 * change, or at exit.
 */
const CACHED_VENDOR = new Set(['./vendor/http-cache-semantics.cjs']);

/** The bundle's require(): undici through loadUndici once `beforeFlags` has run, the cached vendor file, all else as usual. */
function bundleRequire(plainRequire, beforeFlags) {
  let undici;
  const vendor = new Map();
  /** Caches still to write under the flags they were loaded with. */
  const unwritten = [];
  const loadVendor = (id) => {
    const file = path.join(path.dirname(BUNDLE), id);
    const loaded = loadCached(file, { name: `vendor-${path.basename(file)}${undici === undefined ? '' : '.liftoff-only'}` });
    if (loaded.unwritten()) {
      if (undici === undefined) unwritten.push(loaded.writeCache);
      process.once('exit', loaded.writeCache);
    }
    // In require.cache as require() would put it: the same module for any later require().
    const cache = require('node:module')._cache;
    cache[file] = loaded.module;
    try {
      return loaded.run();
    } catch (err) {
      delete cache[file];
      throw err;
    }
  };
  const lazyRequire = (id) => {
    if (id === './vendor/undici.cjs') {
      if (undici === undefined) {
        beforeFlags();
        for (const write of unwritten.splice(0)) write();
        undici = loadUndici();
      }
      return undici;
    }
    if (!CACHED_VENDOR.has(id)) return plainRequire(id);
    if (!vendor.has(id)) vendor.set(id, loadVendor(id));
    return vendor.get(id);
  };
  return Object.assign(lazyRequire, plainRequire);
}

/**
 * The code cache for a command line is named after its command (`show`, `ids`…), so each
 * command finds the functions it runs already compiled: the first word after the global flags
 * (read by the CLI's own rule: dist/bundle/leading-words.cjs), with `.local` when --sandbox or
 * --catalogue answers it in-process (other functions run then), else `default`. The name is
 * checked against the CLI's commands before a cache is written, so nothing typed other than a
 * command name ever names a file; a word that names none reads a cache that never exists.
 */
function codeCacheName(argv, commandNames) {
  let line;
  try {
    line = require(path.join(path.dirname(BUNDLE), 'leading-words.cjs')).commandLine(argv);
  } catch {
    return 'default'; // a build without it
  }
  const word = line.words[0];
  if (word === undefined || !(commandNames === undefined ? /^[a-z]{1,16}$/.test(word) : commandNames.includes(word))) return 'default';
  return line.flags.includes('--sandbox') || line.flags.includes('--catalogue') ? `${word}.local` : word;
}

/** Runs the bundle with its code cache, one per command; gives its exports ({ main }). */
function runBundle(argv) {
  const bundle = loadCached(BUNDLE, {
    name: `cli.cjs.${codeCacheName(argv)}`,
    cacheName: (exports) => `cli.cjs.${codeCacheName(argv, exports.COMMAND_NAMES ?? [])}`,
    requireFor: (plainRequire) => bundleRequire(plainRequire, () => bundle.writeCache()),
  });
  // Written at exit, so the functions this run compiled are in it too, unless the run loads
  // undici (and so sets V8's flags): then just before.
  if (bundle.unwritten()) process.once('exit', bundle.writeCache);
  return bundle.run();
}

module.exports = { BUNDLE, runBundle };
