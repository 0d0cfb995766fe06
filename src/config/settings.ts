/**
 * The settings in force and where each comes from, flag > environment > stored config > default,
 * for every row of the settings table alike (`config list` shows the same resolution); the
 * global flags and config keys as the table declares them; and how a value looks at the edges
 * (help, `config list`, the settings file), the program itself using ms for every duration.
 */
import { closestWords, orList } from '../catalogue/suggest.js';
import { UsageError } from '../errors.js';
import { type Env, type StoredConfig, durationIn, formatDuration, parseLangTag, readStoredConfig } from './parsers.js';
import { type GlobalOptions, type Setting, type SettingType, type SettingValue, type SettingValues, SETTINGS, fieldOf } from './settings-table.js';

export type { GlobalOptions, OutputFormat } from './settings-table.js';

/** The setting of that name; an unknown name is a programming error. */
export function setting(name: string): Setting {
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw new Error(`No setting is called ${name}.`);
  return found;
}

/** A value as a person reads it (help, `config get`, `config list`): a duration as 24h. */
export function displayValue(spec: Setting, value: SettingValue): string {
  return spec.type === 'duration' && typeof value === 'number' ? formatDuration(value, spec.unit as 's' | 'ms') : String(value);
}

/** A value as the settings file keeps it and `config list --json` shows it: a duration as a number of its unit (`deadline`: seconds). */
export function fileValue(spec: Setting, value: SettingValue): SettingValue {
  return spec.type === 'duration' && typeof value === 'number' ? durationIn(value, spec.unit as 's' | 'ms') : value;
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
  const notes = [first, given === undefined ? '' : `default ${given}`, spec.variable ? `env ${spec.variable}` : ''].filter((n) => n);
  return notes.length === 0 ? spec.description : `${spec.description} (${notes.join('; ')})`;
}

/** A setting with a flag: the flag's spelling and the GlobalOptions field it fills. */
export type GlobalFlag = Setting & { flag: string; field: keyof GlobalOptions };

/** Every global flag, in the order `--help` lists them. */
export const GLOBAL_FLAGS: readonly GlobalFlag[] = SETTINGS.filter((s) => s.flag !== undefined).map((s) => ({ ...s, field: fieldOf(s) }) as GlobalFlag);

/** The help line: the description, the flag's own note, the default and the environment variable. */
export function flagHelp(flag: Setting): string {
  return settingHelp(flag, flag.flagNote);
}

/** The long flag as typed (`--base-url`, `--no-color`), for messages; undefined for a setting without one. */
export function longFlag(spec: Pick<Setting, 'flag'>): string | undefined {
  return spec.flag && /--[a-z-]+/.exec(spec.flag)![0];
}

/** The flag of a GlobalOptions field as typed (`--base-url`), for messages. */
export function flagName(field: keyof GlobalOptions): string {
  return longFlag(GLOBAL_FLAGS.find((f) => f.field === field)!)!;
}

/** Off unless given (`--verbose`: false), on unless given (`--no-color`: true); flags with values: absent. */
export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = Object.freeze(
  Object.fromEntries(GLOBAL_FLAGS.filter((f) => f.type === 'switch').map((f) => [f.field, f.flag.startsWith('--no-')])) as unknown as GlobalOptions,
);

/** commander's parsed values (program.opts()) as GlobalOptions: switches as booleans, values as given. */
export function readGlobalFlags(opts: Record<string, unknown>): GlobalOptions {
  const read = (f: GlobalFlag, value: unknown): unknown => (f.type !== 'switch' ? value : f.flag.startsWith('--no-') ? value !== false : value === true);
  return Object.fromEntries(GLOBAL_FLAGS.map((f) => [f.field, read(f, opts[f.field])])) as GlobalOptions;
}

/** A stored setting (its `name` is the config key). */
export type ConfigKeySpec = Setting & { stored: true };

export const CONFIG_KEYS: readonly ConfigKeySpec[] = SETTINGS.filter((s): s is ConfigKeySpec => s.stored === true);

/** The key's setting; an unknown key is a usage error suggesting the closest and listing them all. */
export function configKeySpec(key: string): ConfigKeySpec {
  const spec = CONFIG_KEYS.find((k) => k.name === key);
  if (!spec) {
    const known = CONFIG_KEYS.map((k) => k.name);
    const near = closestWords(key, known);
    throw new UsageError(`Unknown config key "${key}".${near.length > 0 ? ` Did you mean ${orList(near)}?` : ''}`, {
      hint: `Known keys: ${known.join(', ')}.`,
      details: { key, known },
    });
  }
  return spec;
}

export type SettingSource = 'flag' | 'env' | 'config' | 'default' | 'sandbox';

/** Where a value in force comes from: its source, and the flag or variable that gave it ("from EXERCISES_API_KEY"). */
export interface SettingOrigin {
  source: SettingSource;
  origin?: string;
}

export interface Resolved<T> extends SettingOrigin {
  value: T | undefined;
}

/**
 * The settings a run reads (ctx.settings()): every stored setting's value in force, one field per
 * row of the table (`cache-ttl` → `cacheTtl`), durations in ms; and `from`, where each came from.
 */
export type Settings = SettingValues & { readonly from: { readonly [K in keyof SettingValues]: SettingOrigin } };

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
  return spec.parser !== undefined && !CHECKED_WHERE_USED.has(spec.type);
}

/** A value from a variable or the settings file, through the setting's parser; `name` says where it came from. */
function checked(spec: Setting, value: unknown, name: string, hint?: string): SettingValue {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!checkedOnEntry(spec)) return text.trim();
  try {
    return spec.parser!(text, name, spec);
  } catch (err) {
    throw err instanceof UsageError && hint ? new UsageError(err.message, { hint }) : err;
  }
}

/** A flag counts as given when it differs from what commander leaves when it is absent (an empty text is not given). */
function flagGiven(spec: Setting, globals: GlobalOptions): SettingValue | undefined {
  if (spec.flag === undefined) return undefined;
  const field = fieldOf(spec) as keyof GlobalOptions;
  const value = globals[field];
  if (value === undefined || value === DEFAULT_GLOBALS[field]) return undefined;
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
  const fromEnv = spec.variable ? env[spec.variable] : undefined;
  if (spec.variable && fromEnv !== undefined && fromEnv.trim() !== '') {
    return { value: check ? checked(spec, fromEnv, spec.variable) : fromEnv.trim(), source: 'env', origin: spec.variable };
  }
  const kept = spec.stored ? stored[spec.name] : undefined;
  if (kept !== undefined && kept !== null && kept !== '') {
    const hint = `Fix it with \`exercises config set ${spec.name} <value>\` or remove it with \`exercises config unset ${spec.name}\`.`;
    return { value: check ? checked(spec, kept, `The stored ${spec.name}`, hint) : (kept as SettingValue), source: 'config' };
  }
  return { value: spec.default, source: 'default' };
}

/** Every stored setting resolved (flag > environment > stored config > default), as the table defines it. */
export function resolveSettings({ env, globals }: { env: Env; globals: GlobalOptions }): Settings {
  // An empty flag is a mistake (an unset variable in a script), not a wish for the default service.
  if (globals.baseUrl !== undefined && globals.baseUrl.trim() === '') {
    throw new UsageError('--base-url is empty.', {
      hint: 'Give the service URL, e.g. --base-url http://127.0.0.1:8787, or leave the flag out for the default.',
    });
  }
  const sources: SettingSources = { globals, env, stored: readStoredConfig(env) };
  const resolved = CONFIG_KEYS.map((spec) => [fieldOf(spec), resolveSetting(spec, sources)] as const);
  return { ...Object.fromEntries(resolved.map(([field, { value }]) => [field, value])), from: Object.fromEntries(resolved) } as unknown as Settings;
}

/**
 * The language to ask for, or undefined for the service's own (the default: nothing is sent).
 * Checked where it is about to be sent: a bad value is a usage error naming the flag, variable or
 * stored setting it came from.
 */
export function langInForce(settings: Pick<Settings, 'lang' | 'from'>): string | undefined {
  const { source, origin } = settings.from.lang;
  return source === 'default' ? undefined : parseLangTag(settings.lang, origin ?? 'The stored lang setting');
}

/**
 * The catalogue directory in force, as given, and what named it: --catalogue, else
 * EXERCISES_CATALOGUE, else the stored `catalogue`, unless --sandbox or --base-url says where the
 * answers come from (the flag with either of them is a usage error). A run's connection
 * (connection.ts) and a TAB (completion/fast-path.ts) both ask this.
 */
export function catalogueInForce(sources: SettingSources): Resolved<string> | undefined {
  const { globals } = sources;
  const other = globals.sandbox ? '--sandbox' : globals.baseUrl !== undefined ? '--base-url' : undefined;
  if (other && globals.catalogue?.trim()) throw new UsageError(`--catalogue cannot be combined with ${other}: each says where the answers come from.`);
  const found = other ? undefined : resolveSetting(setting('catalogue'), sources);
  return found?.value ? (found as Resolved<string>) : undefined;
}
