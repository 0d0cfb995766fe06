/**
 * The words typed before a TAB, read as commander would parse them: the commands, the flags
 * given (with their values), the arguments, and what the word under the cursor stands for.
 */
import type { CommandSpec, CompletionData, OptionSpec } from './data.js';
import { dequote } from './words.js';

/** What the command line says so far, for choosing the sources (`--catalogue`, `--sandbox`). */
export interface ParsedLine {
  /** The commands typed, program first. */
  commands: CommandSpec[];
  /** Arguments of the innermost command, before the current word. */
  positionals: string[];
  /** The last value of each flag given (by its long spelling), '' for flags without a value. */
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

/**
 * Follows the words before the current one as commander would parse them: flags (with
 * their values, `--flag=value`, `-ovalue`), `--`, subcommands, then arguments.
 */
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
        // Its value is the word being completed (an optional value only if one is typed).
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
