#!/usr/bin/env node
// Tiny launcher, in CommonJS (see bin/package.json): Node starts a CommonJS entry a few ms
// faster than an ES module (start-up budget, bench/startup.mjs). `--version` alone is
// answered here without loading the CLI; everything else runs the bundled CLI
// (dist/bundle/cli.cjs, built by `npm run build`), or the plain tsc output when no bundle was built.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const BUNDLE = path.join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');

/** Where env-paths('exercises', { suffix: '' }).cache points, as the rest of the CLI uses it. */
function userCacheDir() {
  const home = require('node:os').homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'exercises');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'exercises', 'Cache');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'exercises');
}

/**
 * Code read from a code cache runs as the user, so a cache is used only when no one else could
 * have written it: its directory and file are the user's own, writable by no one else, and
 * neither is a symbolic link (one pointing elsewhere would also send our writes there). The
 * directory is made 0700 and each file 0600 whatever the umask. On Windows, which has no such
 * owners and modes, the checks are skipped.
 */
const OWNER_ONLY = typeof process.getuid === 'function';

/** Whether a file or directory is the user's own and writable by no one else. */
function ownedPrivately(stat) {
  return !OWNER_ONLY || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
}

/** Makes the code-cache directory, or checks the one there: true when it is safe to write into. */
function privateDir(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || (OWNER_ONLY && stat.uid !== process.getuid())) return false;
  // The user's own directory, made by an older version or under a loose umask: tightened.
  // Its files are each checked as they are read, so whatever another user left there is ignored.
  if (OWNER_ONLY && (stat.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
  return true;
}

/** The file `name` in `dir` when both are private (see above), else undefined. */
function readPrivate(dir, name) {
  const dirStat = fs.lstatSync(dir);
  if (!dirStat.isDirectory() || !ownedPrivately(dirStat)) return undefined;
  const fd = fs.openSync(path.join(dir, name), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || !ownedPrivately(stat)) return undefined;
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `name` in `dir` as a new 0600 file renamed into place, so a concurrent run never reads half a file. */
function writePrivate(dir, name, data) {
  const partial = path.join(dir, `${name}.${process.pid}`);
  const fd = fs.openSync(partial, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    if (OWNER_ONLY) fs.fchmodSync(fd, 0o600); // the umask may have taken the owner's bits too
    fs.writeFileSync(fd, data);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(partial, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(partial, path.join(dir, name));
}

/**
 * The code cache for a command line is named after its command (`show`, `ids`…), so each
 * command finds the functions it runs already compiled: the first argument, if it is one of
 * the CLI's commands (`commandNames` from the bundle), else `default`. Flags before the
 * command only mean the default cache, and nothing typed other than a command name ever
 * names a file.
 */
function codeCacheName(argv, commandNames) {
  return argv.length > 0 && commandNames.includes(argv[0]) ? argv[0] : 'default';
}

/**
 * Compiles and runs `file` as Node's require() would, but with a V8 code cache kept in the user
 * cache directory as `<name>.v8`: compiling a bundle and the functions a command runs costs
 * several ms on every start, and Node 20 has no module.enableCompileCache() (Node 22.1+). The
 * cache is keyed by Node version, architecture, and the file's size and mtime; V8 also rejects
 * data from another V8, for other source or made under other V8 flags, and then the file is
 * simply compiled anew. Any trouble with the cache directory only means no cache.
 * `writeCache()` writes it when this run must (none yet, or rejected), once; renamed into place
 * so a concurrent run never reads half a file. `cacheName()` may refine the name at write time.
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

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 11 compiles it with Liftoff
 * (~1 ms), then again with TurboFan in the background, and process exit waits for that second
 * compile: ~100 ms on a one-request command, more than the request itself (bench/startup.mjs).
 * Liftoff code parses a few KiB of headers just as well. Of V8's flags only --liftoff-only
 * removes the wait on Node 20 (--no-wasm-tier-up and --no-wasm-dynamic-tiering do not).
 *
 * But V8 checks every code cache against a hash of its flags: once any flag is set at run time,
 * Node's own built-in modules no longer match their embedded code caches (each built-in loaded
 * afterwards is compiled from source: +15 ms on `--help`), nor does a cache made before. So the
 * flag is set at one fixed point, only in runs that send a request, when the bundle requires
 * undici (the vendor file, see scripts/bundle.mjs): after the bundle's code cache, if it needs
 * writing, has been written under the flags it is read with, and after the built-ins undici
 * uses are loaded; then undici itself is compiled, with a code cache of its own made and read
 * under the flag (~10 ms less per request-sending command). Commands that send nothing never
 * set it. bench/bare-client.cjs loads undici through this same function.
 */
const UNDICI = path.join(__dirname, '..', 'dist', 'bundle', 'vendor', 'undici.cjs');
/** The built-ins undici's files require as they load (a list for speed only: one missing is just compiled without its cache). */
const UNDICI_BUILTINS = [
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

function loadUndici() {
  for (const builtin of UNDICI_BUILTINS) require(builtin);
  require('node:v8').setFlagsFromString('--liftoff-only');
  const undici = loadCached(UNDICI, { name: 'vendor-undici.cjs' });
  process.once('exit', undici.writeCache);
  return undici.run();
}

/**
 * Vendor files a request-sending command loads on every run besides undici: the request
 * ledger's lock (before each request) and the response cache's write path (after a miss),
 * ~100 KB compiled from source each time without a cache of their own. Each gets its code
 * cache as the bundle does, named after the V8 flags in force when it loads (a cache made
 * under other flags would be rejected), and written before the flags change, or at exit.
 */
const CACHED_VENDOR = new Set(['./vendor/proper-lockfile.cjs', './vendor/cacache-write.cjs']);

/** The bundle's require(): undici through loadUndici, once `beforeFlags` has run; all else as usual. */
function requireWithUndici(bundleRequire, beforeFlags) {
  let undici;
  const vendor = new Map();
  /** Caches still to write under the flags they were loaded with. */
  const unwritten = [];
  const lazyRequire = (id) => {
    if (id === './vendor/undici.cjs') {
      if (undici === undefined) {
        beforeFlags();
        for (const write of unwritten.splice(0)) write();
        undici = loadUndici();
      }
      return undici;
    }
    if (!CACHED_VENDOR.has(id)) return bundleRequire(id);
    if (!vendor.has(id)) {
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
        vendor.set(id, loaded.run());
      } catch (err) {
        delete cache[file];
        throw err;
      }
    }
    return vendor.get(id);
  };
  return Object.assign(lazyRequire, bundleRequire);
}

/**
 * Node 22.1+ has a compile cache of its own (module.enableCompileCache): the bundle and the
 * vendor files are then plain require()s, their code cached by Node in
 * `<cache>/compile-cache/`. It is used from this Node major version on, where it was measured
 * at least as fast as the launcher's own code-cache files (bench/startup.mjs --compare-caches,
 * docs/performance.md); below it, or when Node lacks it, the launcher's files are used.
 */
const NODE_COMPILE_CACHE_FROM = Infinity;

function nodeCompileCacheWanted() {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= NODE_COMPILE_CACHE_FROM && typeof require('node:module').enableCompileCache === 'function';
}

/**
 * Runs the bundle with Node's compile cache, in a directory checked as the launcher's own
 * (private, the user's, not a link: see privateDir), else with no cache. undici still loads
 * only after V8's --liftoff-only is set (see loadUndici): the bundle's require of it is caught.
 */
function loadBundleWithNodeCache() {
  const Module = require('node:module');
  try {
    const dir = path.join(userCacheDir(), 'compile-cache');
    // Node reads whatever files are inside without checking who wrote them: a directory of
    // the user's that was ever open to others is emptied before it is trusted again.
    const before = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (before?.isDirectory() && !ownedPrivately(before) && OWNER_ONLY && before.uid === process.getuid()) fs.rmSync(dir, { recursive: true });
    if (privateDir(dir)) Module.enableCompileCache(dir);
  } catch {
    // no cache
  }
  const load = Module._load;
  Module._load = function loadFirstSettingFlags(request, parent, isMain) {
    if (request === './vendor/undici.cjs' && parent?.filename === BUNDLE) {
      Module._load = load;
      for (const builtin of UNDICI_BUILTINS) require(builtin);
      require('node:v8').setFlagsFromString('--liftoff-only');
    }
    return load.call(this, request, parent, isMain);
  };
  return require(BUNDLE);
}

/** Runs the bundle (dist/bundle/cli.cjs) with its code cache, one per command. */
function loadBundle(argv) {
  // Read with the name the first argument suggests; checked against the real commands before writing.
  const guess = argv.length > 0 && /^[a-z]{1,16}$/.test(argv[0]) ? argv[0] : 'default';
  const bundle = loadCached(BUNDLE, {
    name: `cli.cjs.${guess}`,
    cacheName: (exports) => `cli.cjs.${codeCacheName(argv, exports.COMMAND_NAMES ?? [])}`,
    requireFor: (bundleRequire) => requireWithUndici(bundleRequire, () => bundle.writeCache()),
  });
  // Written at exit, so the functions this run compiled are in it too, unless the run loads
  // undici (and so sets V8's flags): then just before.
  if (bundle.unwritten()) process.once('exit', bundle.writeCache);
  return bundle.run();
}

if (require.main !== module) {
  // Required, not run: bench/bare-client.cjs loads undici exactly as the CLI does.
  module.exports = { loadUndici };
} else {
  const args = process.argv.slice(2);
  if (args[0] === '__complete') {
    // Shell completion (the scripts of `exercises completion`): answered without the CLI.
    require('./complete.js')(args.slice(1));
  } else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${require('../package.json').version}\n`);
  } else if (fs.existsSync(BUNDLE)) {
    (nodeCompileCacheWanted() ? loadBundleWithNodeCache() : loadBundle(args)).main(process.argv);
  } else {
    // The plain tsc output (no bundle built, no code cache): undici is imported by the ES
    // module loader, out of reach here, so the flag is set up front.
    require('node:v8').setFlagsFromString('--liftoff-only');
    import('../dist/cli.js').then((plain) => plain.main(process.argv));
  }
}
