/**
 * What a command's help shows beyond its flags (help-layout.ts draws it): the examples every
 * command's --help ends with (for the terminal, then for pipelines), and the bare-group rule.
 */
import type { Command } from 'commander';

export interface HelpExamples {
  terminal: readonly string[];
  pipelines: readonly string[];
}

const EXAMPLES = new WeakMap<Command, HelpExamples>();

export function addExamples(cmd: Command, terminal: string[], pipelines: string[]): Command {
  EXAMPLES.set(cmd, { terminal, pipelines });
  return cmd;
}

/** A note: prose (and indented commands), or a list of terms with their descriptions. */
export type HelpItems = ReadonlyArray<{ term: string; description: string }>;
export type HelpNote = { title: string; text: string } | { title: string; items: HelpItems };

const NOTES = new WeakMap<Command, HelpNote[]>();

/**
 * A section of its own in the command's help, before EXAMPLES: plain lines are joined into
 * paragraphs and wrapped; indented lines (a script, a command) keep their indentation.
 */
export function addNotes(cmd: Command, title: string, text: string | HelpItems): Command {
  NOTES.set(cmd, [...(NOTES.get(cmd) ?? []), typeof text === 'string' ? { title, text } : { title, items: text }]);
  return cmd;
}

export function notesOf(cmd: Command): readonly HelpNote[] {
  return NOTES.get(cmd) ?? [];
}

/** The examples given to addExamples, if any: the help layout and the man pages (scripts/man.mjs) draw them. */
export function examplesOf(cmd: Command): HelpExamples | undefined {
  return EXAMPLES.get(cmd);
}

/**
 * A command that only groups others (`exercises`, `auth`, `config`, `cache`) prints its help on
 * stdout and succeeds when given nothing else, as gh does; commander would print it as an error.
 */
export function helpWhenBare(cmd: Command): Command {
  const help = cmd.help.bind(cmd);
  cmd.help = ((context?: { error?: boolean }) => help({ ...(typeof context === 'object' ? context : {}), error: false })) as Command['help'];
  return cmd;
}
