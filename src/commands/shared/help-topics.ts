/**
 * `exercises help <topic>`: global-flags (every flag any command takes, from the program
 * itself), environment, defaults and exit-codes (the reference tables, from their one source
 * each: src/config/settings-docs.ts, EXIT_CODE_TABLE in
 * src/errors.ts), wrapped to the terminal's width.
 */
import type { Command } from 'commander';
import { changedBy, defaultsTable, environmentVariables } from '../../config/settings-docs.js';
import { EXIT_CODE_TABLE } from '../../errors.js';
import { wrap } from '../../output/wrap.js';
import { flagItem, itemList } from './help-layout.js';

export interface TopicContext {
  /** Terminal columns (80 when unknown). */
  width: number;
  /** The program, whose own options are the global flags. */
  program: () => Command;
}

export const HELP_TOPICS = {
  'global-flags': ({ width, program }: TopicContext): string => {
    const root = program();
    const helper = root.createHelp();
    helper.helpWidth = width;
    const items = root.options.filter((o) => !o.hidden).map((o) => flagItem(helper, o));
    return `${wrap('Global flags: they go before or after the command (exercises --sandbox ids, exercises ids --sandbox).', width)}\n\n${itemList(items, width).join('\n')}\n`;
  },
  environment: ({ width }: TopicContext): string => {
    const items = environmentVariables().map((v) => ({ term: v.name, description: v.meaning }));
    return `${wrap('Environment variables (a flag beats a variable, a variable beats the stored config):', width)}\n${itemList(items, width).join('\n')}\n`;
  },
  'exit-codes': ({ width }: TopicContext): string => {
    const items = EXIT_CODE_TABLE.map((e) => ({ term: String(e.code).padStart(3), description: e.meaning }));
    return `Exit codes:\n${itemList(items, width).join('\n')}\n`;
  },
  defaults: ({ width }: TopicContext): string => {
    const items = defaultsTable().map((r) => ({ term: r.name, description: `${r.value}${changedBy(r).length > 0 ? ` (${changedBy(r).join(', ')})` : ''}` }));
    return `${wrap('Defaults (a flag beats a variable, a variable beats the stored config, which beats these):', width)}\n${itemList(items, width).join('\n')}\n`;
  },
} as const;

export type HelpTopic = keyof typeof HELP_TOPICS;

export function isHelpTopic(word: string): word is HelpTopic {
  return Object.hasOwn(HELP_TOPICS, word);
}
