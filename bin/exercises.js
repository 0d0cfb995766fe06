#!/usr/bin/env node
// Tiny launcher, in CommonJS (see bin/package.json): Node starts a CommonJS entry a few ms
// faster than an ES module (start-up budget, bench/startup.mjs). `--version` alone is
// answered here without loading the CLI; everything else runs the bundled CLI
// (dist/bundle/cli.cjs, built by `npm run build`), or the plain tsc output when no bundle was built.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  let cli;
  try {
    cli = require('../dist/bundle/cli.cjs');
  } catch (err) {
    if (err?.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes('dist/bundle/cli.cjs')) throw err;
  }
  if (cli) cli.main(process.argv);
  else import('../dist/cli.js').then((plain) => plain.main(process.argv));
}
