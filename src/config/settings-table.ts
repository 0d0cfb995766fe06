/**
 * Every setting of the CLI, each declared once, as npm declares its config (flag, key, variable,
 * default, type, description, parser): the flags, `config`, the resolution, help, the man pages
 * and docs/commands.md all read it (docs/development.md "Adding a setting"). Every command line
 * evaluates this file, so nothing here runs at load beyond building the rows.
 */
import { resolve } from 'node:path';
import { catalogueDirProblem } from '../catalogue/catalogue-dir.js';
import { UsageError } from '../errors.js';
import { parseBaseUrl } from '../util/url-policy.js';
import {
  CACHE_TTL_MAX_SECONDS,
  DEFAULT_ALLOW_INSECURE,
  COMMANDS_WITHOUT_DEFAULT_DEADLINE,
  DEADLINE_MAX_SECONDS,
  DEFAULT_BASE_URL,
  DEFAULT_CACHE_TTL_SECONDS,
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_LANG,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  RETRIES_MAX,
  TIMEOUT_MAX_MS,
} from '../defaults.js';
import { type DurationRule, formatDuration, parseByteRate, parseDuration, parseLangTag, parseSwitch, parseWholeNumber } from './parsers.js';

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export type SettingValue = string | number | boolean;

/** What kind of value a setting takes, as help and the docs name it. */
export type SettingType = 'text' | 'url' | 'language' | 'duration' | 'whole number' | 'directory' | 'switch' | 'choice' | 'secret';

export interface Setting {
  /** Its name in messages, help and docs: the config key when it is `stored` (`base-url`, `timeout`). */
  key: string;
  /** The global flag, as commander spells it (`--base-url <url>`, `-v, --verbose`, `--no-color`). */
  flags?: string;
  /** The field of GlobalOptions commander fills from the flag: the key in camel case (`baseUrl`), made from it. */
  option?: string;
  /** The environment variable that stands in for the flag (over the stored value). */
  env?: string;
  /** `exercises config set <name>` stores it. */
  stored?: boolean;
  /** What is in force when nothing sets it, in the unit `parse` returns; absent: nothing (no key, no budget). */
  default?: SettingValue;
  type: SettingType;
  /** One line, lower case, no default or variable in it (help adds them). */
  description: string;
  /** What the flag's help line adds to the description (`discouraged: visible in ps`). */
  flagNote?: string;
  /** Checks and normalises a value given as text, in the code's unit; a UsageError names `name`, where it came from. */
  parse?(text: string, name: string): SettingValue;
  /** How a value is shown to a person (`config list`, `help defaults`): a duration as `24h`. */
  display?(value: SettingValue): string;
  /** The default in words when the value alone would mislead (`60s; none for download and mirror`). */
  defaultNote?: string;
  /** Never printed in full (`config list` masks it). */
  secret?: boolean;
  /** The command that stores it instead of `config set` (the key: `auth login`). */
  setWith?: string;
  choices?: readonly string[];
}

/** A duration row's parser and display, for its rule. */
function duration(rule: DurationRule): Pick<Setting, 'parse' | 'display'> {
  return {
    parse: (text, name) => parseDuration(text, name, rule),
    display: (value) => (typeof value === 'number' ? formatDuration(value, rule.unit) : String(value)),
  };
}

/** A catalogue directory as stored: absolute, and holding exercises.jsonl now. */
function parseCatalogueDir(text: string, name: string): string {
  const problem = catalogueDirProblem(text.trim());
  if (problem) throw new UsageError(`${name}: ${problem}.`, { hint: '`exercises mirror <dir>` writes a catalogue directory.' });
  return resolve(text.trim());
}

/** A base URL as stored: checked like every other (src/util/url-policy.ts), without a trailing slash. */
function parseBaseUrlSetting(text: string): string {
  return parseBaseUrl(text).href.replace(/\/+$/, '');
}

const NO_DEADLINE_FOR = COMMANDS_WITHOUT_DEFAULT_DEADLINE.join(' and ');

/** The rows, as written (the types below read them). */
const ROWS = [
  {
    key: 'base-url',
    flags: '--base-url <url>',
    env: 'EXERCISES_BASE_URL',
    stored: true,
    default: DEFAULT_BASE_URL,
    type: 'url',
    description: 'service base URL',
    parse: parseBaseUrlSetting,
  },
  {
    key: 'api-key',
    flags: '--api-key <key>',
    env: 'EXERCISES_API_KEY',
    stored: true,
    type: 'secret',
    description: 'API key sent as X-API-Key',
    flagNote: 'discouraged: visible in ps and shell history',
    secret: true,
    setWith: 'exercises auth login',
    parse: (text) => text.trim(),
  },
  {
    key: 'lang',
    flags: '--lang <code>',
    env: 'EXERCISES_LANG',
    stored: true,
    default: DEFAULT_LANG,
    defaultNote: `the service’s, ${DEFAULT_LANG}`,
    type: 'language',
    description: 'translation language, e.g. de-DE',
    parse: parseLangTag,
  },
  {
    key: 'format',
    flags: '--format <format>',
    type: 'choice',
    choices: OUTPUT_FORMATS,
    defaultNote: 'table on a terminal, tsv in a pipe',
    description: 'output format',
  },
  {
    key: 'json',
    flags: '--json [fields]',
    type: 'text',
    description: 'same as --format json; with a comma list (--json id,name) only those fields',
  },
  { key: 'color', flags: '--no-color', type: 'switch', description: 'no colour (also NO_COLOR=1)' },
  {
    key: 'timeout',
    flags: '--timeout <duration>',
    stored: true,
    default: DEFAULT_TIMEOUT_MS,
    type: 'duration',
    description: 'give up on a request after this long without progress: 30s, 2m, 500ms or milliseconds',
    ...duration({ unit: 'ms', min: 1, max: TIMEOUT_MAX_MS }),
  },
  {
    key: 'deadline',
    flags: '--deadline <duration>',
    env: 'EXERCISES_DEADLINE',
    stored: true,
    default: DEFAULT_DEADLINE_SECONDS,
    defaultNote: `${formatDuration(DEFAULT_DEADLINE_SECONDS, 's')}; none for ${NO_DEADLINE_FOR} unless set`,
    type: 'duration',
    description: 'give up on the whole command after this long waiting for the service, retries included: 90s, 2m or seconds; 0 for none',
    ...duration({ unit: 's', min: 0, max: DEADLINE_MAX_SECONDS }),
  },
  {
    key: 'retries',
    flags: '--retries <n>',
    stored: true,
    default: DEFAULT_RETRIES,
    type: 'whole number',
    description: 'retries for failed idempotent requests',
    parse: (text, name) => parseWholeNumber(text, name, 0, RETRIES_MAX),
  },
  {
    key: 'verbose',
    flags: '-v, --verbose',
    type: 'switch',
    description: 'log requests, timings and quota headers to stderr (key redacted)',
  },
  { key: 'quiet', flags: '-q, --quiet', type: 'switch', description: 'no progress or notices on stderr' },
  {
    key: 'allow-insecure',
    flags: '--allow-insecure',
    env: 'EXERCISES_ALLOW_INSECURE',
    stored: true,
    default: DEFAULT_ALLOW_INSECURE,
    type: 'switch',
    description: 'allow plain http:// to the base URL when its host is not loopback (a LAN proxy): the key and data travel unencrypted',
    parse: parseSwitch,
  },
  {
    key: 'sandbox',
    flags: '--sandbox',
    type: 'switch',
    description: 'use the built-in sample catalogue, answered in-process (no key, no network; never the stored settings)',
  },
  {
    key: 'catalogue',
    flags: '--catalogue <dir>',
    env: 'EXERCISES_CATALOGUE',
    stored: true,
    type: 'directory',
    description: 'answer every command from a catalogue directory (as `exercises mirror` writes one) in-process: no request leaves the machine',
    parse: parseCatalogueDir,
  },
  { key: 'offline', flags: '--offline', type: 'switch', description: 'answer only from the response cache; a miss is exit 6' },
  { key: 'refresh', flags: '--refresh', type: 'switch', description: 'fetch answers anew and update the response cache' },
  { key: 'cache', flags: '--no-cache', type: 'switch', description: 'neither read nor write the response cache' },
  {
    key: 'cache-ttl',
    stored: true,
    default: DEFAULT_CACHE_TTL_SECONDS,
    type: 'duration',
    description: 'how long a cached answer is used without asking the service when it says nothing: 24h, 90m, 3600s or seconds; 0 revalidates every time',
    ...duration({ unit: 's', min: 0, max: CACHE_TTL_MAX_SECONDS }),
  },
  {
    key: 'budget',
    flags: '--budget <n>',
    env: 'EXERCISES_BUDGET',
    stored: true,
    defaultNote: 'none',
    type: 'whole number',
    description: 'requests allowed per calendar month (UTC); a command stops before the request that would pass it',
    parse: (text, name) => parseWholeNumber(text, name, 0),
  },
  {
    key: 'limit-rate',
    flags: '--limit-rate <bytes/s>',
    env: 'EXERCISES_LIMIT_RATE',
    stored: true,
    defaultNote: 'none',
    type: 'whole number',
    description:
      'media downloads (download, image, video, mirror --media) at most this many bytes a second in all, as curl takes it: 500k, 2m (1024-based); 0 for no limit',
    parse: parseByteRate,
  },
  { key: 'pager', flags: '--no-pager', type: 'switch', description: 'never send long tables through a pager' },
  { key: 'input', flags: '--no-input', type: 'switch', description: 'never prompt, even at a terminal (a missing id is a usage error)' },
] as const satisfies readonly Setting[];

/** `base-url` → `baseUrl`, as commander names a flag's field. */
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
const camel = (key: string): string => key.replace(/-([a-z])/g, (_all, c: string) => c.toUpperCase());

/** Every setting, in the order `--help` lists the flags and `config list` the keys; a flag's `option` made from its key. */
export const SETTINGS: readonly Setting[] = ROWS.map((row: Setting) => (row.flags ? { ...row, option: camel(row.key) } : row));

type Row = (typeof ROWS)[number] & { flags?: string };
/** What commander leaves in a flag's field: a choice one of its words, a number or duration a number, other values text (`--json` alone: true). */
type FlagValue<R> = R extends { choices: readonly (infer C)[] }
  ? C
  : R extends { type: 'duration' | 'whole number' }
    ? number
    : R extends { key: 'json' }
      ? boolean | string
      : string;

/** The global options as commander parsed them, one field per row with a flag: a switch always a boolean (`--no-color`: false when given), a value absent unless given. */
export type GlobalOptions = { [R in Row as R extends { flags: string; type: 'switch' } ? Camel<R['key']> : never]: boolean } & {
  [R in Row as R extends { flags: string } ? (R extends { type: 'switch' } ? never : Camel<R['key']>) : never]?: FlagValue<R>;
};
