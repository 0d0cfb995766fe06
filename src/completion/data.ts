/** The shape of dist/completion.json: the command line as completion knows it, written at build time from the real program, read on every TAB. */

/** Bumped when the shape changes, so a stale data file is noticed rather than misread. */
export const COMPLETION_DATA_VERSION = 1;

/** How a value is completed: fixed values, paths (left to the shell), or things looked up locally on TAB. */
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
  flags: string[];
  description: string;
  /** `<x>`: always a value; `[x]`: when one follows. */
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
  /** False for keys stored by their own command (the API key). */
  settable: boolean;
}

export interface CompletionData {
  version: typeof COMPLETION_DATA_VERSION;
  /** The program: its options are the global ones. */
  program: CommandSpec;
  configKeys: ConfigKeyInfo[];
}
