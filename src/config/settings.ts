/**
 * The settings in force and where each comes from, flag > environment > stored config > default,
 * for every row of the settings table alike (`config list` shows the same resolution); and the
 * global flags and config keys as the table declares them.
 */
import { closestWords, orList } from '../catalogue/suggest.js';
import { UsageError } from '../errors.js';
import { type Env, type StoredConfig, parseLangTag, readStoredConfig } from './parsers.js';
import { type GlobalOptions, type Setting, type SettingType, type SettingValue, SETTINGS } from './settings-table.js';

export type { GlobalOptions, OutputFormat } from './settings-table.js';

/** The setting of that name; an unknown name is a programming error. */
export function setting(name: string): Setting {
  const found = SETTINGS.find((s) => s.key === name);
  if (!found) throw new Error(`No setting is called ${name}.`);
  return found;
}

/** A value as a person reads it: through the setting's display rule (a duration as 24h). */
export function displayValue(spec: Pick<Setting, 'display'>, value: SettingValue): string {
  return spec.display ? spec.display(value) : String(value);
}

/** The default in words, for help and docs: `30s`, `the service’s, en-GB`, or undefined when there is none to say. */
export function defaultText(spec: Setting): string | undefined {
  if (spec.defaultNote !== undefined) return spec.defaultNote;
  return spec.default === undefined ? undefined : displayValue(spec, spec.default);
}

/**
 * A setting in one line, as the flags' help and `config --help` show it: the description, then
 * `first` (a note of the caller's), the default (a switch has none to state) and the variable.
 */
export function settingHelp(spec: Setting, first?: string): string {
  const given = spec.type === 'switch' ? undefined : defaultText(spec);
  const notes = [first, given !== undefined ? `default ${given}` : undefined, spec.env ? `env ${spec.env}` : undefined].filter((n) => n !== undefined);
  return notes.length === 0 ? spec.description : `${spec.description} (${notes.join('; ')})`;
}

/** A setting with a flag: the flag's spelling and the GlobalOptions field it fills. */
export type GlobalFlag = Setting & { flags: string; option: keyof GlobalOptions };

/** Every global flag, in the order `--help` lists them. */
export const GLOBAL_FLAGS: readonly GlobalFlag[] = SETTINGS.filter((s): s is GlobalFlag => s.flags !== undefined && s.option !== undefined);

/** The help line: the description, the flag's own note, the default and the environment variable. */
export function flagHelp(flag: Setting): string {
  return settingHelp(flag, flag.flagNote);
}

/** The long flag as typed (`--base-url`, `--no-color`), for messages; undefined for a setting without one. */
export function longFlag(spec: Pick<Setting, 'flags'>): string | undefined {
  return spec.flags && /--[a-z-]+/.exec(spec.flags)![0];
}

/** The flag of a GlobalOptions field as typed (`--base-url`), for messages. */
export function flagName(key: keyof GlobalOptions): string {
  return longFlag(GLOBAL_FLAGS.find((f) => f.option === key)!)!;
}

/** Off unless given (`--verbose`: false), on unless given (`--no-color`: true); flags with values: absent. */
export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = Object.freeze(
  Object.fromEntries(GLOBAL_FLAGS.filter((f) => f.type === 'switch').map((f) => [f.option, f.flags.startsWith('--no-')])) as unknown as GlobalOptions,
);

/** commander's parsed values (program.opts()) as GlobalOptions: switches as booleans, values as given. */
export function readGlobalFlags(opts: Record<string, unknown>): GlobalOptions {
  const read = (f: GlobalFlag, value: unknown): unknown => (f.type !== 'switch' ? value : f.flags.startsWith('--no-') ? value !== false : value === true);
  return Object.fromEntries(GLOBAL_FLAGS.map((f) => [f.option, read(f, opts[f.option])])) as GlobalOptions;
}

/** A stored setting (its `key` is the config key). */
export type ConfigKeySpec = Setting & { stored: true };

export const CONFIG_KEYS: readonly ConfigKeySpec[] = SETTINGS.filter((s): s is ConfigKeySpec => s.stored === true);

/** The key's setting; an unknown key is a usage error suggesting the closest and listing them all. */
export function configKeySpec(key: string): ConfigKeySpec {
  const spec = CONFIG_KEYS.find((k) => k.key === key);
  if (!spec) {
    const known = CONFIG_KEYS.map((k) => k.key);
    const near = closestWords(key, known);
    throw new UsageError(`Unknown config key "${key}".${near.length > 0 ? ` Did you mean ${orList(near)}?` : ''}`, {
      hint: `Known keys: ${known.join(', ')}.`,
      details: { key, known },
    });
  }
  return spec;
}

export type SettingSource = 'flag' | 'env' | 'config' | 'default' | 'sandbox';

export interface Resolved<T> {
  value: T | undefined;
  source: SettingSource;
  /** The flag or environment variable name, for messages ("from EXERCISES_API_KEY"). */
  origin?: string;
}

/** The settings a run reads (ctx.settings()), in the code's units: a budget or rate limit of none is null, a deadline of none (0) a null `ms`. */
export type Settings = ReturnType<typeof resolveSettings>;

/** Where a setting's value may come from in this run. */
export interface SettingSources {
  globals: GlobalOptions;
  env: Env;
  stored: StoredConfig;
}

/**
 * Text settings (a URL, a language, a directory, a key) are checked where they are used, with the
 * same parser (the connection, langInForce): only a command that uses one fails on a bad one
 * (`--sandbox` never reads the stored base URL), with a message naming where it came from.
 */
const CHECKED_WHERE_USED: ReadonlySet<SettingType> = new Set(['text', 'url', 'language', 'directory', 'secret']);

/** True when the setting's own parser checks a value as soon as it is given (a number, a duration); else it is checked where used. */
export function checkedOnEntry(spec: Setting): boolean {
  return spec.parse !== undefined && !CHECKED_WHERE_USED.has(spec.type);
}

/** A value from a variable or the settings file, through the setting's parser; `name` says where it came from. */
function checked(spec: Setting, value: unknown, name: string, hint?: string): SettingValue {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!checkedOnEntry(spec)) return text.trim();
  try {
    return spec.parse!(text, name);
  } catch (err) {
    throw err instanceof UsageError && hint ? new UsageError(err.message, { hint }) : err;
  }
}

/** A flag counts as given when it differs from what commander leaves when it is absent (an empty text is not given). */
function flagGiven(spec: Setting, globals: GlobalOptions): SettingValue | undefined {
  const option = spec.option as keyof GlobalOptions | undefined;
  const value = option && globals[option];
  if (value === undefined || value === DEFAULT_GLOBALS[option!]) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value;
}

/**
 * One setting's value in force and where it comes from. `check: false` takes variables and
 * stored values as they are (`config list` shows a bad stored value rather than failing on it).
 */
export function resolveSetting(spec: Setting, { globals, env, stored }: SettingSources, check = true): Resolved<SettingValue> {
  const flag = flagGiven(spec, globals);
  if (flag !== undefined) return { value: flag, source: 'flag', origin: longFlag(spec) };
  const fromEnv = spec.env ? env[spec.env] : undefined;
  if (spec.env && fromEnv !== undefined && fromEnv.trim() !== '') {
    return { value: check ? checked(spec, fromEnv, spec.env) : fromEnv.trim(), source: 'env', origin: spec.env };
  }
  const kept = spec.stored ? stored[spec.key] : undefined;
  if (kept !== undefined && kept !== null && kept !== '') {
    const hint = `Fix it with \`exercises config set ${spec.key} <value>\` or remove it with \`exercises config unset ${spec.key}\`.`;
    return { value: check ? checked(spec, kept, `The stored ${spec.key}`, hint) : (kept as SettingValue), source: 'config' };
  }
  return { value: spec.default, source: 'default' };
}

/** How each source of the deadline is named in its timeout message. */
const DEADLINE_ORIGIN = { config: 'the deadline setting', default: 'the default; --deadline changes it' } as const;

export function resolveSettings({ env, globals }: { env: Env; globals: GlobalOptions }) {
  // An empty flag is a mistake (an unset variable in a script), not a wish for the default service.
  if (globals.baseUrl !== undefined && globals.baseUrl.trim() === '') {
    throw new UsageError('--base-url is empty.', {
      hint: 'Give the service URL, e.g. --base-url http://127.0.0.1:8787, or leave the flag out for the default.',
    });
  }
  const sources: SettingSources = { globals, env, stored: readStoredConfig(env) };
  const value = (name: string): Resolved<SettingValue> => resolveSetting(setting(name), sources);
  const text = (name: string): Resolved<string> => value(name) as Resolved<string>;
  const lang = text('lang');
  const deadline = value('deadline');
  const deadlineSource = deadline.source as 'flag' | 'env' | 'config' | 'default';
  return {
    baseUrl: text('base-url'),
    apiKey: text('api-key'),
    // Undefined unless something sets it: the service's own default is then not sent.
    lang: lang.source === 'default' ? ({ value: undefined, source: 'default' } as Resolved<string>) : lang,
    timeoutMs: value('timeout').value as number,
    retries: value('retries').value as number,
    budget: (value('budget').value as number | undefined) ?? null,
    limitRate: (value('limit-rate').value as number | undefined) || null,
    deadline: {
      ms: deadline.value === 0 ? null : (deadline.value as number) * 1000,
      source: deadlineSource,
      origin: deadline.origin ?? DEADLINE_ORIGIN[deadlineSource as 'config' | 'default'],
    },
    cacheTtlMs: (value('cache-ttl').value as number) * 1000,
    allowInsecure: value('allow-insecure') as Resolved<boolean>,
  };
}

/**
 * The language in force, or undefined for the service default. Checked where it is about to
 * be sent: a bad value is a usage error naming the flag, variable or stored setting it came from.
 */
export function langInForce(settings: Pick<Settings, 'lang'>): string | undefined {
  const { value, origin } = settings.lang;
  return value === undefined ? undefined : parseLangTag(value, origin ?? 'The stored lang setting');
}
