/** The examples every command's --help ends with: for the terminal, then for pipelines. */
import type { Command } from 'commander';

export function addExamples(cmd: Command, terminal: string[], pipelines: string[]): Command {
  const block = (title: string, lines: string[]): string => (lines.length ? `\n${title}:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n` : '');
  return cmd.addHelpText('after', block('Examples', terminal) + block('In pipelines', pipelines));
}
