#!/usr/bin/env node
// The launcher. It answers what needs no CLI (`--version`, shell completion) and otherwise runs
// the bundled CLI (dist/bundle/cli.cjs, built by `npm run build`), or the plain tsc output when
// no bundle was built. In CommonJS (see bin/package.json): Node starts a CommonJS entry a few
// ms faster than an ES module.
//
// Everything under bin/startup/ exists only for start-up speed (code caches, V8's
// --liftoff-only, the static help): docs/development.md "How start-up works" says what each
// file does and why; a reader of the CLI itself can skip them.
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
  const { BUNDLE, runBundle } = require('./startup/run-bundle.js');
  if (require('node:fs').existsSync(BUNDLE)) {
    runBundle(args).main(process.argv);
  } else {
    // The plain tsc output (no bundle built, no code cache): undici is imported by the ES
    // module loader, out of reach here, so the flag is set up front.
    require('node:v8').setFlagsFromString('--liftoff-only');
    import('../dist/cli.js').then((plain) => plain.main(process.argv));
  }
}
