#!/usr/bin/env node
// Tiny launcher. `--version` alone is answered here without loading the CLI (start-up budget,
// bench/startup.mjs); everything else runs the bundled CLI (dist/bundle, built by
// `npm run build`), or the plain tsc output when no bundle was built.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  let cli;
  try {
    cli = await import('../dist/bundle/cli.js');
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist/bundle/cli.js')) throw err;
    cli = await import('../dist/cli.js');
  }
  cli.main(process.argv);
}
