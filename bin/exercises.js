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
 * Loads the bundle as Node's require() would, but with V8's code cache kept in the user
 * cache directory: compiling the bundle and the functions a command runs costs several ms
 * on every start, and Node 20 has no module.enableCompileCache() (Node 22.1+). The cache is
 * keyed by Node version, architecture, and the bundle's size and mtime; V8 also rejects
 * data from another V8 or for other source, and then the bundle is simply compiled anew.
 * Any trouble with the cache directory only means no cache.
 */
function loadBundle(source, argv) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const stat = fs.statSync(BUNDLE);
  const key = Buffer.from(`${process.version} ${process.arch} ${stat.size} ${stat.mtimeMs}\n`);
  const cacheDir = path.join(userCacheDir(), 'code-cache');
  // Read with the name the first argument suggests; checked against the real commands before writing.
  const guess = argv.length > 0 && /^[a-z]{1,16}$/.test(argv[0]) ? argv[0] : 'default';
  let cachedData;
  try {
    const stored = fs.readFileSync(path.join(cacheDir, `cli.cjs.${guess}.v8`));
    if (stored.subarray(0, key.length).equals(key)) cachedData = stored.subarray(key.length);
  } catch {
    // no cache yet
  }
  // The bundle has no import() (scripts/bundle.mjs sees to it): Node 20 cannot run one here.
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = Module._nodeModulePaths(path.dirname(BUNDLE));
  script.runInThisContext().call(bundle.exports, bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, path.dirname(BUNDLE));
  bundle.loaded = true;
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so the functions this run compiled are in it too; renamed into place
    // so a concurrent run never reads half a file.
    process.once('exit', () => {
      try {
        const cacheFile = path.join(cacheDir, `cli.cjs.${codeCacheName(argv, bundle.exports.COMMAND_NAMES ?? [])}.v8`);
        fs.mkdirSync(cacheDir, { recursive: true });
        const partial = `${cacheFile}.${process.pid}`;
        fs.writeFileSync(partial, Buffer.concat([key, script.createCachedData()]));
        fs.renameSync(partial, cacheFile);
      } catch {
        // a read-only or missing cache directory: run without a cache
      }
    });
  }
  return bundle.exports;
}

const args = process.argv.slice(2);
if (args[0] === '__complete') {
  // Shell completion (the scripts of `exercises completion`): answered without the CLI.
  require('./complete.js')(args.slice(1));
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  let source;
  try {
    source = fs.readFileSync(BUNDLE, 'utf8');
  } catch (err) {
    if (err?.code !== 'ENOENT') throw err;
  }
  if (source === undefined) import('../dist/cli.js').then((plain) => plain.main(process.argv));
  else loadBundle(source, args).main(process.argv);
}
