// A plain `--help` printed into a
// pipe from dist/help/ (scripts/help-text.mjs wrote it from the CLI's own output at build
// time), without loading the CLI. Help into a pipe is 80 columns with no colour whatever the
// environment, so the text is the same; at a terminal the CLI renders it to the terminal's
// width. Anything but the plain forms below goes to the CLI, as does a missing file.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const HELP_DIR = path.join(__dirname, '..', '..', 'dist', 'help');
const WORD = /^[a-z][a-z-]{0,30}$/;

/**
 * The help file a command line asks for, or undefined: `--help`, `-h` or `help` alone (the
 * program's), `<command> [<subcommand>] --help|-h`, `help <command> [<subcommand>]`.
 */
function helpFile(args) {
  let words;
  if (args[0] === 'help') words = args.slice(1);
  else if (args.length > 0 && (args[args.length - 1] === '--help' || args[args.length - 1] === '-h')) words = args.slice(0, -1);
  else return undefined;
  if (words.length > 2 || !words.every((w) => WORD.test(w))) return undefined;
  return path.join(HELP_DIR, `${words.length === 0 ? 'exercises' : words.join('-')}.txt`);
}

/** Prints the help `args` ask for and returns true, when it can be printed from dist/help/; else false. */
function printStaticHelp(args) {
  const file = helpFile(args);
  if (file === undefined) return false;
  // At a terminal the CLI renders help to its width.
  if (process.stdout.isTTY) return false;
  let text;
  try {
    text = fs.readFileSync(file);
  } catch {
    return false;
  }
  process.stdout.write(text);
  return true;
}

module.exports = { printStaticHelp };
