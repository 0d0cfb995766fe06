#!/usr/bin/env node
// The launcher. It answers what needs no CLI (`--version`, shell completion, a plain `--help`
// into a pipe) and otherwise runs the bundled CLI (dist/bundle/cli.cjs, built by
// `npm run build`), or the plain tsc output when no bundle was built. docs/development.md
// "How start-up works" says what each part buys.
'use strict';

const args = process.argv.slice(2);

if (args[0] === '__complete') {
  // Shell completion (the scripts of `exercises completion`): answered without the CLI.
  require('./complete.js')(args.slice(1));
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (args.some((a) => a === '--help' || a === '-h' || a === 'help') && require('./startup/static-help.js').printStaticHelp(args)) {
  // A plain --help into a pipe, printed from the text the build took from the CLI.
} else {
  runCli();
}

function runCli() {
  const { enableCompileCache, liftoffOnNode20 } = require('./startup/engine-options.js');
  enableCompileCache();
  liftoffOnNode20();
  const bundle = require('node:path').join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');
  if (require('node:fs').existsSync(bundle)) require(bundle).main(process.argv);
  else import('../dist/cli.js').then((plain) => plain.main(process.argv));
}
