#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli.js, from tsc) into dist/bundle/ with esbuild: one
 * module graph for start-up instead of hundreds of files, and code splitting so the heavy
 * pieces that commands import lazily (undici, conf, cli-table3, the server…) stay in
 * their own chunks and load only when used. bin/exercises.js runs the bundle.
 * Measured with bench/startup.mjs (see the README's performance section).
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;
rmSync(outdir, { recursive: true, force: true });

await build({
  entryPoints: { cli: `${root}dist/cli.js` },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: class and function names stay readable in --verbose stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  // Chunks sit next to cli.js (two levels below the package root, like dist/server/*.js),
  // so paths built from import.meta.url (the sample catalogue) resolve the same way.
  chunkNames: '[name]-[hash]',
  // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});
