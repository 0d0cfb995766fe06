/**
 * Any thrown value as one plain sentence (and a hint) on stderr, a JSON line with --format json, and
 * its exit code; a stack trace only with --verbose for exit 1. commander's parse errors, known by their
 * `code`, are said again in our words (an unknown text is kept, tidied).
 */
import { type Context, colorEnabled, outputFormat } from '../context.js';
import { CliError, ExitCode, type ExitCodeValue, InterruptedError, PromptCancelledError, UsageError } from '../errors.js';
import { cleanText, escapeUnsafe } from '../util/text.js';
import { jsonText } from './json.js';
import { noticeLines } from './wrap.js';
import { orList } from '../catalogue/suggest.js';

type ErrorContext = Pick<Context, 'io' | 'env' | 'globals'>;

export function reportError(err: unknown, ctx: ErrorContext): ExitCodeValue {
  if (err instanceof PromptCancelledError) return err.exitCode; // the person left a prompt: nothing to say
  const known = err instanceof CliError ? err : undefined;
  const exitCode = known?.exitCode ?? ExitCode.UNEXPECTED;
  const message = cleanText(known?.message ?? `Unexpected error: ${err instanceof Error ? err.message : String(err)}`);
  const rawHint = known?.hint ?? (known ? undefined : 'Run again with --verbose for details, and please report it.');
  const hint = rawHint === undefined ? undefined : cleanText(rawHint);

  // Ctrl-C is something the person did, not a failure: no `Error:`.
  const label = err instanceof InterruptedError ? '' : colorEnabled(ctx, 'stderr') ? '\u001b[31mError:\u001b[39m ' : 'Error: ';
  let text = noticeText(label + message, hint, ctx);
  // A stack trace is for a bug (exit 1); a known failure's sentence already says all there is.
  if (ctx.globals.verbose && exitCode === ExitCode.UNEXPECTED && err instanceof Error && err.stack) text += `${cleanText(err.stack)}\n`;
  ctx.io.stderr.write(text);

  if (outputFormat(ctx) === 'json') {
    const body = {
      error: {
        code: known?.code ?? 'unexpected',
        exitCode,
        message,
        ...(hint ? { hint } : {}),
        ...(known?.details ? { details: known.details } : {}),
      },
    };
    ctx.io.stderr.write(`${jsonText(body)}\n`);
  }
  return exitCode;
}

/** A sentence and its hint as every stderr message looks: wrapped on a terminal, the hint dim in colour. */
function noticeText(message: string, hint: string | undefined, ctx: ErrorContext): string {
  let text = `${noticeLines(message, ctx.io)}\n`;
  if (hint) {
    const body = noticeLines(hint, ctx.io);
    text += `${colorEnabled(ctx, 'stderr') ? `\u001b[2m${body}\u001b[22m` : body}\n`;
  }
  return text;
}

/** One of commander's parse errors as a UsageError in our style: one sentence, the typed text escaped, a hint naming the help. */
export function commanderUsageError(err: CommanderFailure, commandPath: string): UsageError {
  const hint = `Run \`${commandPath} --help\` for usage.`;
  const ours = commanderMessage(err, commandPath);
  if (ours !== undefined) return new UsageError(escapeUnsafe(ours), { hint });
  const lines = err.message
    .replace(/^error:\s*/i, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const [first = 'Bad command line', ...rest] = lines;
  const suggestion = rest.map((l) => l.replace(/^\((.*)\)$/, '$1')).join(' ');
  const sentence = `${first[0]!.toUpperCase()}${first.slice(1)}${/[.?!]$/.test(first) ? '' : '.'}`;
  return new UsageError(escapeUnsafe(suggestion ? `${sentence} ${suggestion}` : sentence), { hint });
}

export interface CommanderFailure {
  readonly code: string;
  readonly message: string;
}

function flagOf(flags: string): string {
  const names = flags.split(/[\s,|]+/).filter((w) => w.startsWith('-'));
  return names.at(-1) ?? flags;
}

/** commander's trailing `(Did you mean x?)` as a sentence of its own, or ''. */
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

/** Our sentence for a commander error, or undefined for a text we do not know. */
export function commanderMessage(err: CommanderFailure, command: string): string | undefined {
  const rewrite = REWRITES[err.code];
  const match = rewrite?.[0].exec(err.message);
  return match ? rewrite![1](match, command, err.message) : undefined;
}
