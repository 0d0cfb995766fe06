/**
 * Every setting of the CLI, each defined once (as npm defines its config): a row holds its name,
 * flag, variable, parser, default, unit, bounds and description, and the flags, `config`, help, the
 * man pages and docs read the rows. Inside, a duration is in ms; `unit` is what a bare number means.
 */
import { resolve } from 'node:path';
import { catalogueDirProblem } from '../catalogue/catalogue-dir.js';
import { UsageError } from '../errors.js';
import { SERVICE_LANG } from '../defaults.js';
import { parseBaseUrl, urlCredentials } from '../util/url-policy.js';
import { COMMANDS_WITHOUT_DEFAULT_DEADLINE, DAY_MS, HOUR_MS } from './time-limits.js';
import { type DurationUnit, formatDuration, parseByteRate, parseDuration, parseLangTag, parseSwitch, parseWholeNumber } from './parsers.js';

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export type SettingValue = string | number | boolean;

export type SettingType = 'text' | 'url' | 'language' | 'duration' | 'whole number' | 'byte rate' | 'directory' | 'switch' | 'choice' | 'secret';

export interface Setting {
  /** Its name in messages and docs, and its config key when `stored`. */
  name: string;
  /** The global flag, as commander spells it. */
  flag?: string;
  variable?: string;
  stored?: boolean;
  type: SettingType;
  /** What a bare number means as typed and as the settings file keeps it. */
  unit?: DurationUnit | 'bytes/s';
  /** In force when nothing sets it, in the program's unit; absent: nothing (no key, no budget). */
  default?: SettingValue;
  /** In the program's unit. */
  bounds?: { min: number; max?: number };
  /** One line, lower case, no default or variable in it (help adds them). */
  description: string;
  /** Checks and normalises text into the program's unit; a UsageError names `name`, where it came from. */
  parser?(text: string, name: string, setting: Setting): SettingValue;
  /** Added to the flag's help line (`discouraged: visible in ps`). */
  flagNote?: string;
  /** The default in words when the value alone would mislead. */
  defaultNote?: string;
  secret?: boolean;
  /** The command that stores it instead of `config set`. */
  setWith?: string;
  choices?: readonly string[];
}

const duration = (text: string, name: string, s: Setting): number => parseDuration(text, name, s.unit as DurationUnit, s.bounds!);
const wholeNumber = (text: string, name: string, s: Setting): number => parseWholeNumber(text, name, s.bounds!.min, s.bounds!.max);

/** A catalogue directory as stored: absolute, holding exercises.jsonl. */
function parseCatalogueDir(text: string, name: string): string {
  const problem = catalogueDirProblem(text.trim());
  if (problem) throw new UsageError(`${name}: ${problem}.`, { hint: '`exercises mirror <dir>` writes a catalogue directory.' });
  return resolve(text.trim());
}

/** A base URL as stored, without a trailing slash. */
function parseBaseUrlSetting(text: string): string {
  return parseBaseUrl(text).href.replace(/\/+$/, '');
}

/** A Redis URL (`redis://[:password@]host[:port][/db]`, `rediss://` for TLS); its password is never echoed. */
function parseSharedStateUrl(text: string, name: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    // said below
  }
  if (!url || !['redis:', 'rediss:'].includes(url.protocol) || url.hostname === '') {
    throw new UsageError(`${name}: expected a redis:// or rediss:// URL with a host.`, { hint: 'For example: redis://:password@10.0.0.5:6379/0' });
  }
  urlCredentials(url, name, 'the URL');
  return text.trim();
}

const ROWS = [
  {
    name: 'base-url',
    flag: '--base-url <url>',
    variable: 'EXERCISES_BASE_URL',
    stored: true,
    type: 'url',
    default: 'https://api.wrkout.xyz',
    description: 'service base URL',
    parser: parseBaseUrlSetting,
  },
  {
    name: 'api-key',
    flag: '--api-key <key>',
    variable: 'EXERCISES_API_KEY',
    stored: true,
    type: 'secret',
    description: 'API key sent as X-API-Key',
    flagNote: 'discouraged: visible in ps and shell history',
    secret: true,
    setWith: 'exercises auth login',
    parser: (text: string) => text.trim(),
  },
  {
    // The service's own language: nothing is sent while it is in force.
    name: 'lang',
    flag: '--lang <code>',
    variable: 'EXERCISES_LANG',
    stored: true,
    type: 'language',
    default: SERVICE_LANG,
    defaultNote: `the service’s, ${SERVICE_LANG}`,
    description: 'translation language, e.g. de-DE',
    parser: parseLangTag,
  },
  {
    name: 'format',
    flag: '--format <format>',
    type: 'choice',
    choices: OUTPUT_FORMATS,
    defaultNote: 'table on a terminal, tsv in a pipe',
    description: 'output format',
  },
  {
    name: 'json',
    flag: '--json [fields]',
    type: 'text',
    description: 'same as --format json; with a comma list (--json id,name) only those fields',
  },
  { name: 'color', flag: '--no-color', type: 'switch', description: 'no colour (also NO_COLOR=1)' },
  {
    name: 'timeout',
    flag: '--timeout <duration>',
    stored: true,
    type: 'duration',
    unit: 'ms',
    default: 30_000,
    // Longer is no use for one pause.
    bounds: { min: 1, max: HOUR_MS },
    description: 'give up on a request after this long without progress: 30s, 2m, 500ms or milliseconds',
    parser: duration,
  },
  {
    name: 'deadline',
    flag: '--deadline <duration>',
    variable: 'EXERCISES_DEADLINE',
    stored: true,
    type: 'duration',
    unit: 's',
    default: 60_000,
    defaultNote: `${formatDuration(60_000)}; none for ${COMMANDS_WITHOUT_DEFAULT_DEADLINE.join(' and ')} unless set; none with --catalogue or --sandbox`,
    bounds: { min: 0, max: DAY_MS },
    description: 'give up on the whole command after this long waiting for the service, retries included: 90s, 2m or seconds; 0 for none',
    parser: duration,
  },
  {
    name: 'retries',
    flag: '--retries <n>',
    stored: true,
    type: 'whole number',
    default: 3,
    bounds: { min: 0, max: 10 },
    description: 'retries for failed idempotent requests',
    parser: wholeNumber,
  },
  {
    name: 'verbose',
    flag: '-v, --verbose',
    type: 'switch',
    description: 'log requests, timings and quota headers to stderr (key redacted)',
  },
  { name: 'quiet', flag: '-q, --quiet', type: 'switch', description: 'no progress or notices on stderr' },
  {
    name: 'allow-insecure',
    flag: '--allow-insecure',
    variable: 'EXERCISES_ALLOW_INSECURE',
    stored: true,
    type: 'switch',
    default: false,
    description: 'allow plain http:// to the base URL when its host is not loopback (a LAN proxy): the key and data travel unencrypted',
    parser: parseSwitch,
  },
  {
    name: 'sandbox',
    flag: '--sandbox',
    type: 'switch',
    description: 'use the built-in sample catalogue, answered in-process (no key, no network; never the stored settings)',
  },
  {
    name: 'catalogue',
    flag: '--catalogue <dir>',
    variable: 'EXERCISES_CATALOGUE',
    stored: true,
    type: 'directory',
    description: 'answer every command from a catalogue directory (as `exercises mirror` writes one) in-process: no request leaves the machine',
    parser: parseCatalogueDir,
  },
  { name: 'offline', flag: '--offline', type: 'switch', description: 'answer only from the response cache; a miss is exit 6' },
  { name: 'refresh', flag: '--refresh', type: 'switch', description: 'fetch answers anew and update the response cache' },
  { name: 'cache', flag: '--no-cache', type: 'switch', description: 'neither read nor write the response cache' },
  {
    name: 'cache-ttl',
    stored: true,
    type: 'duration',
    unit: 's',
    default: DAY_MS,
    // A year: longer is surely a typo.
    bounds: { min: 0, max: 366 * DAY_MS },
    description: 'how long a cached answer is used without asking the service when it says nothing: 24h, 90m, 3600s or seconds; 0 revalidates every time',
    parser: duration,
  },
  {
    name: 'budget',
    flag: '--budget <n>',
    variable: 'EXERCISES_BUDGET',
    stored: true,
    type: 'whole number',
    defaultNote: 'none',
    bounds: { min: 0 },
    description: 'requests allowed per calendar month (UTC); a command stops before the request that would pass it',
    parser: wholeNumber,
  },
  {
    // The team proxy's replicas share the budget, fills and answers through it (src/proxy/shared-state.ts).
    name: 'shared-state',
    flag: '--shared-state <url>',
    variable: 'EXERCISES_SHARED_STATE',
    stored: true,
    type: 'url',
    secret: true,
    description: 'with serve --upstream: keep the budget, fills and answers in this Redis (redis:// or rediss://), shared by every replica',
    parser: parseSharedStateUrl,
  },
  {
    name: 'limit-rate',
    flag: '--limit-rate <bytes/s>',
    variable: 'EXERCISES_LIMIT_RATE',
    stored: true,
    type: 'byte rate',
    unit: 'bytes/s',
    defaultNote: 'none',
    // Far past any link, and still an exact number.
    bounds: { min: 0, max: 1024 ** 4 },
    description:
      'media downloads (download, image, video, mirror --media) at most this many bytes a second in all, as curl takes it: 500k, 2m (1024-based); 0 for no limit',
    parser: (text: string, name: string, s: Setting) => parseByteRate(text, name, s.bounds!.max!),
  },
  { name: 'pager', flag: '--no-pager', type: 'switch', description: 'never send long tables through a pager' },
  { name: 'input', flag: '--no-input', type: 'switch', description: 'never prompt, even at a terminal (a missing id is a usage error)' },
  {
    name: 'log-probes',
    flag: '--log-probes',
    type: 'switch',
    description: 'with serve --upstream: also log and count the requests to /-/status and /-/metrics (left out by default)',
  },
] as const satisfies readonly Setting[];

type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
/** A setting's field in GlobalOptions and Settings (`base-url` → `baseUrl`, as commander names it). */
export const fieldOf = (spec: Pick<Setting, 'name'>): string => spec.name.replace(/-([a-z])/g, (_all, c: string) => c.toUpperCase());

/** Every setting, in the order `--help` lists the flags and `config list` the keys. */
export const SETTINGS: readonly Setting[] = ROWS;

type Row = (typeof ROWS)[number];
/** A value inside the program: a choice's word, a number (ms for a duration), a boolean, else text. */
type ValueOf<R> = R extends { choices: readonly (infer C)[] }
  ? C
  : R extends { type: 'duration' | 'whole number' | 'byte rate' }
    ? number
    : R extends { type: 'switch' }
      ? boolean
      : string;

/** The global options as commander parsed them: a switch always a boolean, a value absent unless given (`--json` alone: true). */
export type GlobalOptions = { [R in Row as R extends { flag: string; type: 'switch' } ? Camel<R['name']> : never]: boolean } & {
  [R in Row as R extends { flag: string } ? (R extends { type: 'switch' } ? never : Camel<R['name']>) : never]?: R extends { name: 'json' }
    ? boolean | string
    : ValueOf<R>;
};

/** Every stored setting's value in force (durations in ms); one without a default may be undefined. */
export type SettingValues = {
  readonly [R in Extract<Row, { stored: true }> as Camel<R['name']>]: R extends { default: unknown } ? ValueOf<R> : ValueOf<R> | undefined;
};
