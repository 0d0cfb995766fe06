#!/usr/bin/env node
/**
 * Builds what shell completion runs on every TAB (`exercises __complete`, see
 * src/completion/fast-path.ts), after tsc and scripts/bundle.mjs:
 *
 * - dist/completion.json: the commands, subcommands, flags and arguments of the real
 *   program (buildProgram), with how each value is
 *   completed, and the config keys. A new flag or command is picked up by the next build.
 * - dist/bundle/complete.cjs: the fast path as one small CommonJS file, which
 *   bin/complete.js loads instead of the CLI, so a TAB costs about one start of Node.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

const { buildProgram } = await import(`${root}dist/cli.js`);
const { describeProgram } = await import(`${root}dist/completion/describe-program.js`);
const { CONFIG_KEYS } = await import(`${root}dist/config/settings.js`);

const program = buildProgram({
  context() {
    throw new Error('The program is only described here, never run.');
  },
});
writeFileSync(`${root}dist/completion.json`, `${JSON.stringify(describeProgram(program, CONFIG_KEYS))}\n`);

await build({
  entryPoints: [`${root}dist/completion/fast-path.js`],
  outfile: `${root}dist/bundle/complete.cjs`,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // The config store writes through conf, loaded lazily; completion only reads the file.
  external: ['conf'],
});
