/**
 * `exercises help environment` and `exercises help exit-codes`: the two reference tables, from
 * their one source each (src/config/environment.ts, EXIT_CODE_TABLE in src/errors.ts).
 */
import { ENVIRONMENT_VARIABLES } from '../../config/environment.js';
import { EXIT_CODE_TABLE } from '../../errors.js';

export const HELP_TOPICS = {
  environment: (): string => {
    const width = Math.max(...ENVIRONMENT_VARIABLES.map((v) => v.name.length));
    return `Environment variables (a flag beats a variable, a variable beats the stored config):\n${ENVIRONMENT_VARIABLES.map((v) => `  ${v.name.padEnd(width)}  ${v.meaning}`).join('\n')}\n`;
  },
  'exit-codes': (): string => `Exit codes:\n${EXIT_CODE_TABLE.map((e) => `  ${String(e.code).padStart(3)}  ${e.meaning}`).join('\n')}\n`,
} as const;

export type HelpTopic = keyof typeof HELP_TOPICS;

/** `help <topic>` as the whole command line (global flags aside), or undefined. */
export function helpTopic(args: readonly string[]): HelpTopic | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  if (words.length !== 2 || words[0] !== 'help') return undefined;
  return Object.hasOwn(HELP_TOPICS, words[1]!) ? (words[1] as HelpTopic) : undefined;
}
