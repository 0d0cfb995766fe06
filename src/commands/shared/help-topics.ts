/**
 * `exercises help environment`, `help defaults` and `help exit-codes`: the reference tables,
 * from their one source each (src/config/environment.ts, src/config/defaults-table.ts,
 * EXIT_CODE_TABLE in src/errors.ts).
 */
import { defaultsTable } from '../../config/defaults-table.js';
import { ENVIRONMENT_VARIABLES } from '../../config/environment.js';
import { EXIT_CODE_TABLE } from '../../errors.js';

export const HELP_TOPICS = {
  environment: (): string => {
    const width = Math.max(...ENVIRONMENT_VARIABLES.map((v) => v.name.length));
    return `Environment variables (a flag beats a variable, a variable beats the stored config):\n${ENVIRONMENT_VARIABLES.map((v) => `  ${v.name.padEnd(width)}  ${v.meaning}`).join('\n')}\n`;
  },
  defaults: (): string => {
    const rows = defaultsTable();
    const width = Math.max(...rows.map((r) => r.name.length));
    const line = (r: (typeof rows)[number]): string => {
      const how = [r.flag, r.env, r.configKey ? `config ${r.configKey}` : undefined].filter((x) => x !== undefined);
      return `  ${r.name.padEnd(width)}  ${r.value}${how.length > 0 ? `  (${how.join(', ')})` : ''}`;
    };
    return `Defaults (a flag beats a variable, a variable beats the stored config, which beats these):\n${rows.map(line).join('\n')}\n`;
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
