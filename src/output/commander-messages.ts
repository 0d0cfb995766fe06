/**
 * commander's own error messages, said again in our words: commander builds its texts from
 * fixed templates (`option '--limit <n>' argument '50' is invalid. …`), so each kind, known by
 * its `code`, is read back here and told as one plain sentence. A message this does not
 * recognise (a new commander) keeps commander's text, tidied into a sentence.
 */
import { orList } from '../catalogue/suggest.js';

/** What runCli knows of a commander error: its code and text. */
export interface CommanderFailure {
  readonly code: string;
  readonly message: string;
}

/** `--limit <n>` → `--limit`; `-l, --limit <n>` → `--limit`. */
function flagOf(flags: string): string {
  const names = flags.split(/[\s,|]+/).filter((w) => w.startsWith('-'));
  return names.at(-1) ?? flags;
}

/** commander's trailing `(Did you mean x?)` line, as a sentence of its own, or ''. */
function didYouMean(text: string): string {
  const match = /\(Did you mean ([^)]*)\)/.exec(text);
  return match ? ` Did you mean ${match[1]}` : '';
}

/** An invalid value: our parser's message alone; commander's own choice check as our sentence. */
function invalidValue(what: string, value: string, reason: string): string {
  const choices = /^Allowed choices are (.*)\.$/.exec(reason.trim());
  if (!choices) return reason.trim();
  return `${what} must be ${orList(choices[1]!.split(', '))}, not "${value}".`;
}

type Rewrite = (match: RegExpExecArray, command: string, message: string) => string;

/** Each code with commander's template for it and our sentence. */
const REWRITES: Readonly<Record<string, readonly [RegExp, Rewrite]>> = {
  'commander.invalidArgument': [
    /^error: (?:option '([^']*)' argument '([\s\S]*)' is invalid\.|command-argument value '([\s\S]*)' is invalid for argument '([^']*)'\.) ([\s\S]*)$/,
    (m) => (m[1] !== undefined ? invalidValue(flagOf(m[1]), m[2]!, m[5]!) : invalidValue(`The ${m[4]!}`, m[3]!, m[5]!)),
  ],
  'commander.optionMissingArgument': [
    /^error: option '([^']*)' argument missing/,
    (m) => `${flagOf(m[1]!)} needs a value: ${m[1]!.replace(/^.*?(--?\S+ )/, '$1')}.`,
  ],
  'commander.missingMandatoryOptionValue': [/^error: required option '([^']*)' not specified/, (m, command) => `${command} needs ${m[1]!}.`],
  'commander.unknownOption': [/^error: unknown option '([^']*)'/, (m, command, message) => `${command} has no ${m[1]!} flag.${didYouMean(message)}`],
  'commander.unknownCommand': [/^error: unknown command '([^']*)'/, (m, _command, message) => `There is no command called "${m[1]!}".${didYouMean(message)}`],
  'commander.missingArgument': [/^error: missing required argument '([^']*)'/, (m, command) => `${command} needs its <${m[1]!}> argument.`],
  'commander.excessArguments': [
    /^error: too many arguments[^.]*\. Expected (\d+) arguments? but got (\d+)\./,
    (m, command) => `${command} takes ${m[1] === '0' ? 'no arguments' : `at most ${m[1]!} argument${m[1] === '1' ? '' : 's'}`}; got ${m[2]!}.`,
  ],
};

/** Our sentence for a commander error, or undefined when its text is not one we know. */
export function commanderMessage(err: CommanderFailure, command: string): string | undefined {
  const rewrite = REWRITES[err.code];
  const match = rewrite?.[0].exec(err.message);
  return match ? rewrite![1](match, command, err.message) : undefined;
}
