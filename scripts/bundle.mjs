#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli.js, from tsc) for start-up speed (docs/development.md
 * "How start-up works", measured by bench/tricks.mjs):
 *
 * - dist/bundle/cli.cjs: all of our own code plus the small dependencies every command
 *   needs (commander…), as ONE CommonJS file instead of some 150 ES modules.
 * - dist/bundle/vendor/: the heavy dependencies that commands load lazily (src/vendor/), one
 *   CommonJS file each, required only when a command reaches them. They share nothing with
 *   our own code, so no class (our error classes above all) exists twice.
 *
 * What each plugin does, and why, is in its own file under scripts/bundle/.
 * bin/exercises.js runs cli.cjs, or the plain tsc output when no bundle was built.
 *
 * For bench/tricks.mjs, which measures each trick by its absence: `--root <dir>` bundles
 * another copy of the package (its own dist/), `--without <plugin,…>` leaves out the plugins
 * named (lazy-builtins, lazy-requires, undici-trim).
 */
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { lazyBuiltins } from './bundle/lazy-builtins.mjs';
import { lazyRequires } from './bundle/lazy-requires.mjs';
import { UNDICI_ENTRY, undiciTrim } from './bundle/undici-trim.mjs';

const { values: options } = parseArgs({ options: { root: { type: 'string' }, without: { type: 'string', default: '' } } });
const root = options.root === undefined ? fileURLToPath(new URL('..', import.meta.url)) : `${options.root.replace(/\/$/, '')}/`;
const without = new Set(options.without.split(',').filter(Boolean));
const outdir = `${root}dist/bundle`;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(outdir, { recursive: true, force: true });

/** The vendor files: name → the specifiers it exports, its own entry source if any, its plugins. */
const VENDOR = {
  conf: { specifiers: ['conf'] },
  chalk: { specifiers: ['chalk'] },
  read: { specifiers: ['read'] },
  'cli-table3': { specifiers: ['cli-table3'] },
  'string-width': { specifiers: ['string-width'] },
  undici: without.has(undiciTrim.name) ? { specifiers: ['undici'] } : { specifiers: ['undici'], entry: UNDICI_ENTRY, plugins: [undiciTrim] },
  // The cache rules (src/cache/headers.ts): storing and revalidating an answer, never a cache hit.
  'http-cache-semantics': { specifiers: ['http-cache-semantics'] },
  // Only `serve --upstream`: the proxy's /-/metrics (src/proxy/metrics.ts).
  'prom-client': { specifiers: ['prom-client'] },
  // Only `serve --upstream --shared-state`: the replicas' Redis (src/proxy/shared-state.ts).
  ioredis: { specifiers: ['ioredis'] },
  // Only at a terminal: the picker (src/prompt).
  'inquirer-search': { specifiers: ['@inquirer/search'] },
};
const vendorOf = new Map(Object.entries(VENDOR).flatMap(([file, { specifiers }]) => specifiers.map((s) => [s, file])));

// Whitespace and syntax only: class and function names stay readable in --verbose stack traces.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning' };

// Each vendor file exports its modules by specifier (ES modules as namespace objects).
for (const [file, { specifiers, entry, plugins }] of Object.entries(VENDOR)) {
  const outfile = `${outdir}/vendor/${file}.cjs`;
  await build({
    ...common,
    stdin: {
      contents: entry ?? `module.exports = {${specifiers.map((s) => `${JSON.stringify(s)}: require(${JSON.stringify(s)})`).join(',')}};`,
      resolveDir: root,
      sourcefile: `vendor-${file}.cjs`,
    },
    outfile,
    plugins: plugins ?? [],
  });
}

/** The export names of the ES modules among the vendor specifiers, read from the built files. */
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

await build({
  ...common,
  entryPoints: [`${root}dist/cli.js`],
  outfile: `${outdir}/cli.cjs`,
  plugins: [lazyRequires(vendorOf, esmExports), lazyBuiltins(`${root}dist`)].filter((plugin) => !without.has(plugin.name)),
  // cli.cjs sits two levels below the package root, like dist/server/*.js, so URLs built from
  // import.meta.url (the sample catalogue) resolve the same way.
  define: { 'import.meta.url': '__bundleUrl', EXERCISES_VERSION: JSON.stringify(version) },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
