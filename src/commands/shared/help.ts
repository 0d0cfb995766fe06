/** The examples every command's --help ends with: for the terminal, then for pipelines. */
import type { Command } from 'commander';

export interface Examples {
  terminal: readonly string[];
  pipelines: readonly string[];
}

/** Each command's examples as data, for the man pages (scripts/man.mjs). */
const EXAMPLES = new WeakMap<Command, Examples>();

export function examplesOf(cmd: Command): Examples | undefined {
  return EXAMPLES.get(cmd);
}

export function addExamples(cmd: Command, terminal: string[], pipelines: string[]): Command {
  EXAMPLES.set(cmd, { terminal, pipelines });
  const block = (title: string, lines: string[]): string => (lines.length ? `\n${title}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n` : '');
  return cmd.addHelpText('after', block('Examples', terminal) + block('In pipelines', pipelines));
}

/**
 * A command that only groups others (`exercises`, `auth`, `config`) prints its help on stdout
 * and succeeds when given nothing else, as gh does; commander would print it as an error.
 */
export function helpWhenBare(cmd: Command): Command {
  const help = cmd.help.bind(cmd);
  cmd.help = ((context?: { error?: boolean }) => help({ ...(typeof context === 'object' ? context : {}), error: false })) as Command['help'];
  return cmd;
}
