#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli.js, from tsc) for start-up speed (DESIGN.md
 * "Performance budgets", measured by bench/startup.mjs):
 *
 * - dist/bundle/cli.cjs: all of our own code plus the small dependencies every command
 *   needs (commander…), as ONE CommonJS file. Node 20's ESM loader costs a few ms to start
 *   and about half a ms per module file on top; a single CommonJS file pays neither.
 * - dist/bundle/vendor/: the heavy dependencies that commands import lazily (undici, conf,
 *   cli-table3, cli-progress, chalk, read), as ES modules with code splitting, loaded by a
 *   real import() only when a command needs them. They share nothing with our own code,
 *   so no class (our error classes above all) exists twice.
 *
 * bin/exercises.js requires cli.cjs, or the plain tsc output when no bundle was built.
 */
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(outdir, { recursive: true, force: true });

/** Lazily imported dependencies → their file under dist/bundle/vendor/. */
const VENDOR = {
  conf: 'conf',
  chalk: 'chalk',
  read: 'read',
  'cli-table3': 'cli-table3',
  'cli-progress': 'cli-progress',
  'undici/lib/dispatcher/agent.js': 'undici-agent',
  'undici/lib/dispatcher/dispatcher.js': 'undici-dispatcher',
  'undici/lib/api/api-request.js': 'undici-api-request',
};

// Whitespace and syntax only: class and function names stay readable in --verbose stack traces.
const common = { bundle: true, platform: 'node', target: 'node20', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' };

await build({
  ...common,
  entryPoints: Object.fromEntries(Object.entries(VENDOR).map(([specifier, name]) => [name, specifier])),
  outdir: `${outdir}/vendor`,
  splitting: true,
  format: 'esm',
  chunkNames: '[name]-[hash]',
  // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
});

/** Points the lazy imports of VENDOR packages at the vendor files (kept as real import()). */
const vendorImports = {
  name: 'vendor-imports',
  setup(b) {
    const names = Object.keys(VENDOR).map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => {
      if (args.kind !== 'dynamic-import') {
        throw new Error(`${args.path} is imported statically by ${args.importer}; the bundle expects it to be imported lazily.`);
      }
      return { path: `./vendor/${VENDOR[args.path]}.js`, external: true };
    });
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

await build({
  ...common,
  entryPoints: [`${root}dist/cli.js`],
  outfile: `${outdir}/cli.cjs`,
  format: 'cjs',
  plugins: [vendorImports, lazyChildProcess],
  // cli.cjs sits two levels below the package root, like dist/server/*.js, so URLs built from
  // import.meta.url (the sample catalogue) resolve the same way.
  define: { 'import.meta.url': '__bundleUrl', EXERCISES_VERSION: JSON.stringify(version) },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
