/**
 * The shape of dist/completion.json: what shell completion knows about the command line,
 * written at build time from the real commander program (scripts/completion-data.mjs,
 * describe-program.ts) and read on every TAB by the fast path (fast-path.ts), which never
 * loads the CLI itself.
 */

/** Bumped when the shape changes, so a stale data file is noticed rather than misread. */
export const COMPLETION_DATA_VERSION = 1;

/**
 * How the value of a flag or argument is completed: fixed values (choices, enum values in
 * their friendly spelling), file or directory names (left to the shell), or things looked
 * up on TAB from local sources only.
 */
export type ValueCompletion =
  | { values: string[] }
  | {
      kind:
        | 'files'
        | 'dirs'
        /** exercise ids and names, from a local catalogue or the id index of the cache */
        | 'exercise'
        /** premium media names of the exercise given before, from a local catalogue */
        | 'media-name'
        /** a config key (`config get|unset`) */
        | 'config-key'
        /** a config key that `config set` accepts */
        | 'settable-config-key'
        /** a command name of the parent command (`help <command>`) */
        | 'command';
    };

export interface OptionSpec {
  /** Every spelling, short first: ['-o', '--output']. */
  flags: string[];
  description: string;
  /** Whether the flag takes a value (`<x>`: always, `[x]`: when one follows). */
  value?: 'required' | 'optional';
  complete?: ValueCompletion;
}

export interface ArgumentSpec {
  name: string;
  variadic: boolean;
  complete?: ValueCompletion;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  description: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
  commands: CommandSpec[];
}

export interface ConfigKeyInfo {
  key: string;
  description: string;
  /** False for keys stored by their own command (the API key: `auth login`). */
  settable: boolean;
}

export interface CompletionData {
  version: typeof COMPLETION_DATA_VERSION;
  /** The program: its options are the global ones, valid before and after a command. */
  program: CommandSpec;
  configKeys: ConfigKeyInfo[];
}
