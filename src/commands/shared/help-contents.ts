/** What the help shows where (help-layout.ts): the CORE commands, the help topics, the global flags inherited per command, the JSON fields per command. */
import { RECORD_FIELDS, SUMMARY_FIELDS } from '../../output/fields.js';
import { type GlobalOptions, flagName } from '../../config/settings.js';

/** The commands a new user starts with; every other top-level command is ADDITIONAL. */
export const CORE_COMMANDS: readonly string[] = ['query', 'ids', 'show', 'image', 'video', 'download'];

/** The help topics of `exercises help <topic>`, with what each holds. */
export const TOPIC_SUMMARIES: Readonly<Record<string, string>> = {
  'global-flags': 'every flag that works with any command',
  defaults: 'every default, and the flag, variable or setting that changes it',
  environment: 'the environment variables read',
  'exit-codes': 'what each exit code means',
};

/** The global flags worth showing under a command (its INHERITED FLAGS), by option; the rest are one topic away. */
const INHERITED_OPTIONS: Readonly<Record<string, ReadonlyArray<keyof GlobalOptions>>> = {
  query: ['format', 'json', 'lang', 'sandbox'],
  ids: ['format', 'json', 'lang', 'sandbox'],
  show: ['format', 'json', 'lang', 'sandbox'],
  image: ['quiet', 'budget', 'sandbox'],
  video: ['quiet', 'budget', 'sandbox'],
  download: ['quiet', 'budget', 'sandbox'],
  mirror: ['quiet', 'budget'],
  quota: ['json'],
};

/** The same, as the flags are typed (`--format`), spelled by the settings table. */
export const INHERITED: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(INHERITED_OPTIONS).map(([command, options]) => [command, options.map(flagName)]),
);

/** The flags the top-level help shows besides --help and --version. */
export const ROOT_FLAGS: readonly string[] = (['sandbox', 'json', 'quiet'] as const).map(flagName);

/** The fields `--json <fields>` accepts, by command. */
export const JSON_FIELDS: Readonly<Record<string, readonly string[]>> = {
  query: SUMMARY_FIELDS,
  ids: SUMMARY_FIELDS,
  show: RECORD_FIELDS,
};
