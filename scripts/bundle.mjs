#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli.js, from tsc) for start-up speed (docs/design.md
 * "Performance budgets", measured by bench/startup.mjs):
 *
 * - dist/bundle/cli.cjs: all of our own code plus the small dependencies every command
 *   needs (commander…), as ONE CommonJS file. Node 20's ESM loader costs a few ms to start
 *   and about half a ms per module file on top; a single CommonJS file pays neither.
 * - dist/bundle/vendor/: the heavy dependencies that commands load lazily (conf,
 *   cli-table3, string-width, chalk, read, and undici: only when a request really goes out),
 *   as CommonJS files required only when a command reaches them. They share nothing with
 *   our own code, so no class (our error classes
 *   above all) exists twice.
 *
 * bin/exercises.js runs cli.cjs (with V8's code cache), or the plain tsc output when no bundle was built.
 */
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { npmcliFsShim } from './npmcli-fs-shim.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(outdir, { recursive: true, force: true });

/** Lazily imported dependencies, one file each under dist/bundle/vendor/. */
const VENDOR = {
  conf: ['conf'],
  chalk: ['chalk'],
  read: ['read'],
  'cli-table3': ['cli-table3'],
  'string-width': ['string-width'],
  undici: ['undici'],
  'proper-lockfile': ['proper-lockfile'],
  // The response cache's write path (every miss): the store is read without cacache (src/cache/store-read.ts).
  'cacache-write': ['cacache/lib/put.js', 'cacache/lib/entry-index.js'],
  // The whole API: `cache info` (ls) and entries this client did not write.
  cacache: ['cacache'],
  // The cache rules of `serve --upstream` (src/server/proxy/cache-policy.ts).
  'http-cache-semantics': ['http-cache-semantics'],
  // Only at a terminal: the picker (src/prompt) and the half-block image renderer (src/output/images).
  'inquirer-search': ['@inquirer/search'],
  pngjs: ['pngjs'],
};
const vendorOf = new Map(Object.entries(VENDOR).flatMap(([file, specifiers]) => specifiers.map((s) => [s, file])));

// Whitespace and syntax only: class and function names stay readable in --verbose stack traces.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' };

/**
 * undici, in part. Its index requires all of undici (fetch, WebSocket, caches, mocks, proxies,
 * HTTP/2: ~730 KB, and node:http2, zlib, worker_threads, perf_hooks at load); the client uses
 * one Agent, its request() (src/http/agent.ts, transport.ts) and, for media bodies, its
 * dispatch() with a handler of ours (src/http/dispatch-body.ts; dispatch and compose are the
 * Agent's own, nothing more to include): HTTP/1.1 GETs without a body.
 * So the vendor file holds just those (~280 KB, half of it llhttp's WebAssembly): `import('undici')`
 * in the bundle gives { Agent } with request() on every dispatcher, as the full module does.
 * Measured with bench/startup.mjs: one `show` ~70 ms faster than with the whole of undici.
 * Anything else taken from undici must be added here (the integration tests run the bundle).
 */
const PARTIAL_VENDOR = {
  undici: `const Dispatcher = require('undici/lib/dispatcher/dispatcher');
Dispatcher.prototype.request = require('undici/lib/api/api-request');
module.exports = { undici: { Agent: require('undici/lib/dispatcher/agent') } };`,
};

/**
 * Parts of undici that the partial file above would still pull in and the client never runs:
 * - the HTTP/2 client: used only when a dispatcher is made with allowH2 (ours is not), and its
 *   file requires node:http2 at load (~5 ms);
 * - fetch's body extraction, which client-h1 requires only to send a FormData body (we send none),
 *   and which brings most of fetch with it;
 * - node:assert (~3 ms to load), used by these files only as assert(value[, message]): a
 *   two-line function with the same effect (checked after the build: nothing else is called).
 */
const undiciTrim = {
  name: 'undici-trim',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/ }, () => ({
      contents: "module.exports = function connectH2 () { throw new Error('HTTP/2 is not part of this build of undici (scripts/bundle.mjs)'); };",
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]web[\\/]fetch[\\/]body\.js$/ }, () => ({
      contents: "module.exports = { extractBody () { throw new Error('Request bodies are not part of this build of undici (scripts/bundle.mjs)'); } };",
      loader: 'js',
    }));
    b.onResolve({ filter: /^(node:)?assert$/ }, () => ({ path: 'assert', namespace: 'assert-function' }));
    b.onLoad({ filter: /.*/, namespace: 'assert-function' }, () => ({
      contents:
        "module.exports = function assert (value, message) { if (!value) throw Object.assign(new Error(message || 'Assertion failed'), { code: 'ERR_ASSERTION' }); };",
      loader: 'js',
    }));
  },
};

/**
 * proper-lockfile takes its fs from graceful-fs, which patches and wraps all of fs at require
 * time (~2 ms) to queue calls past EMFILE: the lock makes a handful of calls (mkdir, stat,
 * utimes, rmdir), one lock at a time, and never meets EMFILE. node:fs has the same functions.
 */
const gracefulFsAsFs = {
  name: 'graceful-fs-as-fs',
  setup(b) {
    b.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'node:fs', external: true }));
  },
};
const VENDOR_PLUGINS = { undici: [undiciTrim], 'proper-lockfile': [gracefulFsAsFs], 'cacache-write': [npmcliFsShim], cacache: [npmcliFsShim] };

// Each vendor file exports its modules by specifier (ES modules as namespace objects).
for (const [file, specifiers] of Object.entries(VENDOR)) {
  const outfile = `${outdir}/vendor/${file}.cjs`;
  await build({
    ...common,
    stdin: {
      contents: PARTIAL_VENDOR[file] ?? `module.exports = {${specifiers.map((s) => `${JSON.stringify(s)}: require(${JSON.stringify(s)})`).join(',')}};`,
      resolveDir: root,
      sourcefile: `vendor-${file}.cjs`,
    },
    outfile,
    ...(VENDOR_PLUGINS[file] ? { plugins: VENDOR_PLUGINS[file] } : {}),
  });
  if (file === 'undici') {
    const used = readFileSync(outfile, 'utf8').match(/\bassert\.\w+/g);
    if (used) throw new Error(`undici now calls ${[...new Set(used)].join(', ')}: extend the assert function of undiciTrim in scripts/bundle.mjs`);
  }
}

/**
 * What a lazy import() of each vendor module must give: for an ES module its namespace
 * (default and named exports as such), for a CommonJS one module.exports as default, as
 * Node's own import() would. Read from the built vendor files.
 */
const requireBuilt = createRequire(import.meta.url);
const esmExports = new Map();
for (const [specifier, file] of vendorOf) {
  const value = requireBuilt(`${outdir}/vendor/${file}.cjs`)[specifier];
  if (value?.__esModule)
    esmExports.set(
      specifier,
      Object.keys(value).filter((name) => name !== 'default'),
    );
}

/** The module an import() of `specifier` (a vendor module) is bundled as. */
function vendorStub(specifier) {
  const load = `require(${JSON.stringify(`./vendor/${vendorOf.get(specifier)}.cjs`)})[${JSON.stringify(specifier)}]`;
  const names = esmExports.get(specifier);
  if (names === undefined) return `module.exports = ${load};`;
  return `const ns = ${load};\nexport default ns.default;\n${names.length > 0 ? `export const { ${names.join(', ')} } = ns;` : ''}`;
}

/**
 * The CLI's lazy import()s of vendor modules and built-ins become require()s, still run
 * only when reached: the launcher compiles the bundle with V8's code cache (vm.Script), and
 * on Node 20 code compiled that way cannot use import() at all.
 */
const lazyRequires = {
  name: 'lazy-requires',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      if (vendorOf.has(args.path)) return { path: args.path, namespace: 'vendor' };
      if (args.path.startsWith('node:')) return { path: args.path, namespace: 'builtin' };
      return undefined;
    });
    b.onResolve({ filter: /.*/ }, (args) => {
      if (vendorOf.has(args.path) && args.kind !== 'dynamic-import') {
        throw new Error(`${args.path} is imported statically by ${args.importer}; the bundle expects it to be imported lazily.`);
      }
      return undefined;
    });
    b.onResolve({ filter: /^\.\/vendor\// }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({ contents: vendorStub(args.path), loader: 'js' }));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * commander requires node:child_process at load time, only to run "executable
 * subcommands", which this CLI does not have; loading that built-in costs ~2 ms on every
 * start. Require it when first used instead (same calls, same behaviour).
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) return undefined; // a commander release that differs: bundle it unchanged
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * Built-ins that our own modules import statically but most commands never call: requiring
 * them at load costs ~7 ms on every start (node:crypto ~4 ms, node:fs/promises ~1.5 ms,
 * node:tty ~1.3 ms; `--help` calls none of them, a cache hit only node:crypto). A static
 * import of one becomes an object of getters with the built-in's export names (read here,
 * at build time, from the same Node): the built-in is required on the first property read,
 * so the same functions are called, just loaded when first used.
 */
const LAZY_BUILTINS = ['node:crypto', 'node:fs/promises', 'node:tty', 'node:child_process', 'node:dns', 'node:http', 'node:readline'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:(crypto|fs\/promises|tty|child_process|dns|http|readline)$/ }, (args) => {
      if (args.kind !== 'import-statement' || !LAZY_BUILTINS.includes(args.path)) return undefined;
      return { path: args.path, namespace: 'lazy-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const names = Object.keys(await import(args.path)).filter((name) => name !== 'default');
      const contents = `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
Object.defineProperty(exports, 'default', { enumerable: true, get: load });`;
      return { contents, loader: 'js' };
    });
  },
};

const { metafile } = await build({
  ...common,
  entryPoints: [`${root}dist/cli.js`],
  outfile: `${outdir}/cli.cjs`,
  plugins: [lazyRequires, lazyChildProcess, lazyBuiltins],
  metafile: true,
  // cli.cjs sits two levels below the package root, like dist/server/*.js, so URLs built from
  // import.meta.url (the sample catalogue) resolve the same way.
  define: { 'import.meta.url': '__bundleUrl', EXERCISES_VERSION: JSON.stringify(version) },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const leftover = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
if (leftover.length > 0) throw new Error(`dist/bundle/cli.cjs must not use import() (see lazyRequires), but imports ${leftover.join(', ')}`);
