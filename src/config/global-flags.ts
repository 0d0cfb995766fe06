/**
 * The global flags, each declared once: its spelling, its help line, the setting whose
 * environment variable stands in for it, and the bounds of a number. cli.ts declares them on
 * the program from this table and reads them back into GlobalOptions; the settings resolution
 * (settings.ts) names them in messages from here. Below the Context (src/context.ts carries
 * them as ctx.globals), so config/ reads them without reaching up.
 */
import { DEADLINE_MAX_SECONDS, DEFAULT_DEADLINE_SECONDS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, RETRIES_MAX, TIMEOUT_MAX_MS } from '../defaults.js';
import { configKeySpec } from './keys.js';

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl', 'csv', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The global options (docs/design.md "CLI surface"), as commander parsed them. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  lang?: string;
  format?: OutputFormat;
  /** `--json` alone is true; `--json id,name` keeps the field list. */
  json?: boolean | string;
  /** commander's `--no-color` sets this to false. */
  color: boolean;
  timeout?: number;
  /** --deadline <s>: the whole command's deadline in seconds (0: none). */
  deadline?: number;
  retries?: number;
  verbose: boolean;
  quiet: boolean;
  sandbox: boolean;
  allowInsecure: boolean;
  /** --catalogue <dir>: every answer from that catalogue directory, in-process. */
  catalogue?: string;
  /** --offline: answers only from the response cache. */
  offline: boolean;
  /** --refresh: fetch anew and update the response cache. */
  refresh: boolean;
  /** commander's `--no-cache` sets this to false: the response cache is neither read nor written. */
  cache: boolean;
  /** --budget <n>: requests allowed this month (over the stored setting). */
  budget?: number;
  /** commander's `--no-pager` sets this to false. */
  pager: boolean;
  /** commander's `--no-input` sets this to false: never prompt (src/prompt/interactive.ts). */
  input: boolean;
}

export interface GlobalFlag {
  key: keyof GlobalOptions;
  /** commander's spelling: `--base-url <url>`, `-v, --verbose`, `--no-color` (true unless given). */
  flags: string;
  description: string;
  /** The config key (config/keys.ts) the flag overrides; its environment variable is named in the help line. */
  setting?: string;
  /** A whole number within these bounds (checked as it is parsed, before any request). */
  whole?: { min: number; max: number };
  /** A duration (5s, 2m, 500ms, or a bare number in `unit`), within these bounds in `unit`. */
  duration?: { unit: 'ms' | 's'; min: number; max: number };
  choices?: readonly string[];
}

/**
 * The help line: the description, naming the environment variable of its setting when there is
 * one (`… (env NAME)`, or `…; env NAME)` inside a closing parenthesis).
 */
export function flagHelp(flag: GlobalFlag): string {
  const env = flag.setting ? configKeySpec(flag.setting).env : undefined;
  if (!env) return flag.description;
  return flag.description.endsWith(')') ? `${flag.description.slice(0, -1)}; env ${env})` : `${flag.description} (env ${env})`;
}

/** Every global flag, in the order `--help` lists them. */
export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  { key: 'baseUrl', flags: '--base-url <url>', description: 'service base URL', setting: 'base-url' },
  { key: 'apiKey', flags: '--api-key <key>', description: 'API key (discouraged: visible in ps and shell history)', setting: 'api-key' },
  { key: 'lang', flags: '--lang <code>', description: 'translation language, e.g. de-DE', setting: 'lang' },
  { key: 'format', flags: '--format <format>', description: 'output format (default: table on a terminal, tsv in a pipe)', choices: OUTPUT_FORMATS },
  { key: 'json', flags: '--json [fields]', description: 'same as --format json; with a comma list (--json id,name) only those fields' },
  { key: 'color', flags: '--no-color', description: 'no colour (also NO_COLOR=1)' },
  {
    key: 'timeout',
    flags: '--timeout <ms>',
    setting: 'timeout',
    description: `give up on a request after this long without progress: 5s, 2m or milliseconds (default ${DEFAULT_TIMEOUT_MS})`,
    duration: { unit: 'ms', min: 1, max: TIMEOUT_MAX_MS },
  },
  {
    key: 'deadline',
    flags: '--deadline <s>',
    setting: 'deadline',
    description: `give up on the whole command after this many seconds waiting for the service, retries included; 0: none (default ${DEFAULT_DEADLINE_SECONDS}; none for download and mirror)`,
    whole: { min: 0, max: DEADLINE_MAX_SECONDS },
  },
  {
    key: 'retries',
    flags: '--retries <n>',
    setting: 'retries',
    description: `retries for failed idempotent requests (default ${DEFAULT_RETRIES})`,
    whole: { min: 0, max: RETRIES_MAX },
  },
  { key: 'verbose', flags: '-v, --verbose', description: 'log requests, timings and quota headers to stderr (key redacted)' },
  { key: 'quiet', flags: '-q, --quiet', description: 'no progress or notices on stderr' },
  { key: 'allowInsecure', flags: '--allow-insecure', description: 'allow plain http:// to a non-loopback host' },
  {
    key: 'sandbox',
    flags: '--sandbox',
    description: 'use the built-in sample catalogue, answered in-process (no key, no network; never the stored settings)',
  },
  {
    key: 'catalogue',
    flags: '--catalogue <dir>',
    description: 'answer every command from a catalogue directory in-process: no request leaves the machine',
    setting: 'catalogue',
  },
  { key: 'offline', flags: '--offline', description: 'answer only from the response cache; a miss is exit 6' },
  { key: 'refresh', flags: '--refresh', description: 'fetch answers anew and update the response cache' },
  { key: 'cache', flags: '--no-cache', description: 'neither read nor write the response cache' },
  {
    key: 'budget',
    flags: '--budget <n>',
    description: 'stop before the request that would pass n requests this month',
    setting: 'budget',
    whole: { min: 0, max: Number.MAX_SAFE_INTEGER },
  },
  { key: 'pager', flags: '--no-pager', description: 'never send long tables through a pager' },
  { key: 'input', flags: '--no-input', description: 'never prompt, even at a terminal (a missing id is a usage error)' },
];

/** The flag as typed (`--base-url`), for messages. */
export function flagName(key: keyof GlobalOptions): string {
  const spelling = GLOBAL_FLAGS.find((f) => f.key === key)!.flags;
  return /--[a-z-]+/.exec(spelling)![0];
}

/** A flag that takes no value: on/off (`--verbose`), or on unless given (`--no-color`). */
function isSwitch(flag: GlobalFlag): boolean {
  return !/[<[]/.test(flag.flags);
}

/** Off unless given (`--verbose`: false), on unless given (`--no-color`: true); flags with values: absent. */
export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = Object.freeze(
  Object.fromEntries(GLOBAL_FLAGS.filter(isSwitch).map((f) => [f.key, f.flags.startsWith('--no-')])) as unknown as GlobalOptions,
);

/** commander's parsed values (program.opts()) as GlobalOptions: switches as booleans, values as given. */
export function readGlobalFlags(opts: Record<string, unknown>): GlobalOptions {
  const globals: Record<string, unknown> = {};
  for (const flag of GLOBAL_FLAGS) {
    const value = opts[flag.key];
    if (!isSwitch(flag)) globals[flag.key] = value;
    else globals[flag.key] = flag.flags.startsWith('--no-') ? value !== false : value === true;
  }
  return globals as unknown as GlobalOptions;
}
