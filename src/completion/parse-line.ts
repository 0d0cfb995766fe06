/**
 * The words typed before a TAB, as the shells hand them over (quoted as typed; in bash split at `=` and
 * `:`), read as commander would: the commands, the flags given, the arguments, the word under the cursor.
 */
import type { CommandSpec, CompletionData, OptionSpec } from './data.js';

export interface Dequoted {
  text: string;
  /** The quote still open at the end of the word (`"Barbell B`). */
  openQuote: '' | '"' | "'";
  /** Where that open quote stands in the raw word. */
  openQuoteAt: number;
}

/** Removes shell quoting: backslashes, '…' and "…". */
export function dequote(raw: string): Dequoted {
  let text = '';
  let quote: '' | '"' | "'" = '';
  let quoteAt = -1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      else text += c;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && i + 1 < raw.length && '\\"$`\n'.includes(raw[i + 1]!)) text += raw[++i];
      else text += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      quoteAt = i;
    } else if (c === '\\') {
      if (i + 1 < raw.length) text += raw[++i];
    } else text += c;
  }
  return { text, openQuote: quote, openQuoteAt: quote === '' ? -1 : quoteAt };
}

/** A word of only bash's word-break characters that matter here. */
function isBreakPiece(word: string): boolean {
  return /^[=:]+$/.test(word);
}

export interface ReassembledLine {
  words: string[];
  cword: number;
  /** The current word's raw text before the piece the shell replaces (after bash's last word break). */
  replacedFrom: number;
}

/** Glues bash's COMP_WORDS back together around `=` and `:` and drops the words after the current one (other shells keep words whole). */
export function reassemble(pieces: readonly string[], cword: number, splitAtBreaks: boolean): ReassembledLine {
  const upTo = pieces.slice(0, Math.max(0, Math.min(cword, pieces.length - 1)) + 1);
  while (upTo.length <= cword) upTo.push('');
  if (!splitAtBreaks) return { words: upTo, cword: upTo.length - 1, replacedFrom: 0 };
  const words: string[] = [];
  let glueNext = false;
  let replacedFrom = 0;
  for (const piece of upTo) {
    const breaks = isBreakPiece(piece);
    const glued: boolean = words.length > 0 && (breaks || glueNext);
    const before = glued ? words.pop()! : '';
    words.push(before + piece);
    replacedFrom = !glued ? 0 : breaks ? before.length + piece.length : before.length;
    glueNext = glued && breaks;
  }
  return { words, cword: words.length - 1, replacedFrom };
}

/** What the command line says so far, for choosing the sources. */
export interface ParsedLine {
  commands: CommandSpec[];
  /** Arguments of the innermost command, before the current word. */
  positionals: string[];
  /** The last value of each flag given (long spelling), '' without a value. */
  given: Map<string, string>;
}

/** The word under the cursor and what it stands for. */
export type Target =
  { type: 'command-or-arg'; text: string } | { type: 'flag'; text: string } | { type: 'value'; option: OptionSpec; text: string; wordPrefix: string };

function findOption(commands: readonly CommandSpec[], flag: string): OptionSpec | undefined {
  for (let i = commands.length - 1; i >= 0; i--) {
    const option = commands[i]!.options.find((o) => o.flags.includes(flag));
    if (option) return option;
  }
  return undefined;
}

function longName(option: OptionSpec): string {
  return option.flags[option.flags.length - 1]!;
}

function findCommand(parent: CommandSpec, name: string): CommandSpec | undefined {
  return parent.commands.find((c) => c.name === name || c.aliases.includes(name));
}

/** Follows the words before the current one as commander would: flags and their values, `--`, subcommands, arguments. */
export function parseLine(data: CompletionData, words: readonly string[], cword: number): { line: ParsedLine; target: Target } {
  const commands: CommandSpec[] = [data.program];
  const positionals: string[] = [];
  const given = new Map<string, string>();
  let afterDashDash = false;
  let pending: OptionSpec | undefined; // a flag whose value is the current word

  for (let i = 1; i < cword; i++) {
    const word = dequote(words[i] ?? '').text;
    if (!afterDashDash && word === '--') {
      afterDashDash = true;
      continue;
    }
    if (!afterDashDash && word.startsWith('-') && word !== '-') {
      const eq = word.startsWith('--') ? word.indexOf('=') : -1;
      const flag = eq > 0 ? word.slice(0, eq) : word.startsWith('--') ? word : word.slice(0, 2);
      const option = findOption(commands, flag);
      if (!option) continue;
      const attached = eq > 0 ? word.slice(eq + 1) : !word.startsWith('--') && word.length > 2 && option.value ? word.slice(2) : undefined;
      if (attached !== undefined || !option.value) {
        given.set(longName(option), attached ?? '');
        continue;
      }
      const next = i + 1 < cword ? dequote(words[i + 1] ?? '').text : undefined;
      if (next === undefined) {
        if (option.value === 'required') pending = option;
        else given.set(longName(option), '');
      } else if (option.value === 'required' || !next.startsWith('-')) {
        given.set(longName(option), next);
        i++;
      } else given.set(longName(option), '');
      continue;
    }
    const current = commands[commands.length - 1]!;
    const sub = positionals.length === 0 && !afterDashDash ? findCommand(current, word) : undefined;
    if (sub) commands.push(sub);
    else positionals.push(word);
  }

  const line: ParsedLine = { commands, positionals, given };
  const text = dequote(words[cword] ?? '').text;
  if (pending) return { line, target: { type: 'value', option: pending, text, wordPrefix: '' } };
  if (!afterDashDash && text.startsWith('--') && text.includes('=')) {
    const eq = text.indexOf('=');
    const option = findOption(commands, text.slice(0, eq));
    if (option?.value) return { line, target: { type: 'value', option, text: text.slice(eq + 1), wordPrefix: text.slice(0, eq + 1) } };
  }
  // A lone `-` may become stdin (`show -`), but typed before a TAB it asks for the flags.
  if (!afterDashDash && text.startsWith('-')) return { line, target: { type: 'flag', text } };
  return { line, target: { type: 'command-or-arg', text } };
}
