/**
 * The settings in force and where each comes from (flag > environment > stored config > default),
 * for every row of the settings table alike, and how a value looks at the edges (help, `config list`, the file).
 */
import { closestWords, orList } from '../catalogue/suggest.js';
import { UsageError } from '../errors.js';
import { type Env, type StoredConfig, durationIn, formatDuration, parseLangTag, readStoredConfig } from './parsers.js';
import { type GlobalOptions, type Setting, type SettingType, type SettingValue, type SettingValues, SETTINGS, fieldOf } from './settings-table.js';

export type { GlobalOptions, OutputFormat } from './settings-table.js';

export function setting(name: string): Setting {
  const found = SETTINGS.find((s) => s.name === name);
  if (!found) throw new Error(`No setting is called ${name}.`);
  return found;
}

/** A value as a person reads it: a duration as 24h. */
export function displayValue(spec: Setting, value: SettingValue): string {
  return spec.type === 'duration' && typeof value === 'number' ? formatDuration(value, spec.unit as 's' | 'ms') : String(value);
}

/** A value as the settings file keeps it: a duration as a number of its unit. */
export function fileValue(spec: Setting, value: SettingValue): SettingValue {
  return spec.type === 'duration' && typeof value === 'number' ? durationIn(value, spec.unit as 's' | 'ms') : value;
}

/** The default in words for help and docs, or undefined when there is none to say. */
export function defaultText(spec: Setting): string | undefined {
  if (spec.defaultNote !== undefined) return spec.defaultNote;
  return spec.default === undefined ? undefined : displayValue(spec, spec.default);
}

/** A setting in one line for help: the description, then `first`, the default (not for a switch) and the variable. */
export function settingHelp(spec: Setting, first?: string): string {
  const given = spec.type === 'switch' ? undefined : defaultText(spec);
  const notes = [first, given === undefined ? '' : `default ${given}`, spec.variable ? `env ${spec.variable}` : ''].filter((n) => n);
  return notes.length === 0 ? spec.description : `${spec.description} (${notes.join('; ')})`;
}

export type GlobalFlag = Setting & { flag: string; field: keyof GlobalOptions };

export const GLOBAL_FLAGS: readonly GlobalFlag[] = SETTINGS.filter((s) => s.flag !== undefined).map((s) => ({ ...s, field: fieldOf(s) }) as GlobalFlag);

export function flagHelp(flag: Setting): string {
  return settingHelp(flag, flag.flagNote);
}

/** The long flag as typed (`--no-color`); undefined for a setting without one. */
export function longFlag(spec: Pick<Setting, 'flag'>): string | undefined {
  return spec.flag && /--[a-z-]+/.exec(spec.flag)![0];
}

export function flagName(field: keyof GlobalOptions): string {
  return longFlag(GLOBAL_FLAGS.find((f) => f.field === field)!)!;
}

/** What commander leaves for an absent flag: a switch off (`--no-…`: on), a value absent. */
export const DEFAULT_GLOBALS: Readonly<GlobalOptions> = Object.freeze(
  Object.fromEntries(GLOBAL_FLAGS.filter((f) => f.type === 'switch').map((f) => [f.field, f.flag.startsWith('--no-')])) as unknown as GlobalOptions,
);

/** commander's program.opts() as GlobalOptions. */
export function readGlobalFlags(opts: Record<string, unknown>): GlobalOptions {
  const read = (f: GlobalFlag, value: unknown): unknown => (f.type !== 'switch' ? value : f.flag.startsWith('--no-') ? value !== false : value === true);
  return Object.fromEntries(GLOBAL_FLAGS.map((f) => [f.field, read(f, opts[f.field])])) as GlobalOptions;
}

export type ConfigKeySpec = Setting & { stored: true };

export const CONFIG_KEYS: readonly ConfigKeySpec[] = SETTINGS.filter((s): s is ConfigKeySpec => s.stored === true);

/** The key's setting; an unknown key is a usage error suggesting the closest. */
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

/** Where a value in force comes from, and the flag or variable that gave it. */
export interface SettingOrigin {
  source: SettingSource;
  origin?: string;
}

export interface Resolved<T> extends SettingOrigin {
  value: T | undefined;
}

/** The settings a run reads (ctx.settings()): one field per stored row, durations in ms, and `from` for each. */
export type Settings = SettingValues & { readonly from: { readonly [K in keyof SettingValues]: SettingOrigin } };

export interface SettingSources {
  globals: GlobalOptions;
  env: Env;
  stored: StoredConfig;
}

/**
 * Text settings are checked where they are used, with the same parser: only a command that uses one
 * fails on a bad one (`--sandbox` never reads the stored base URL).
 */
const CHECKED_WHERE_USED: ReadonlySet<SettingType> = new Set(['text', 'url', 'language', 'directory', 'secret']);

/** True when the setting's parser checks a value as soon as it is given; else it is checked where used. */
export function checkedOnEntry(spec: Setting): boolean {
  return spec.parser !== undefined && !CHECKED_WHERE_USED.has(spec.type);
}

function checked(spec: Setting, value: unknown, name: string, hint?: string): SettingValue {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!checkedOnEntry(spec)) return text.trim();
  try {
    return spec.parser!(text, name, spec);
  } catch (err) {
    throw err instanceof UsageError && hint ? new UsageError(err.message, { hint }) : err;
  }
}

/** A flag counts as given when it differs from what commander leaves when absent (an empty text does not). */
function flagGiven(spec: Setting, globals: GlobalOptions): SettingValue | undefined {
  if (spec.flag === undefined) return undefined;
  const field = fieldOf(spec) as keyof GlobalOptions;
  const value = globals[field];
  if (value === undefined || value === DEFAULT_GLOBALS[field]) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value;
}

/** One setting's value in force and its source; `check: false` takes values as they are (`config list` shows a bad one). */
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

export function resolveSettings({ env, globals }: { env: Env; globals: GlobalOptions }): Settings {
  // An empty flag is a mistake (an unset variable in a script), not a wish for the default.
  if (globals.baseUrl !== undefined && globals.baseUrl.trim() === '') {
    throw new UsageError('--base-url is empty.', {
      hint: 'Give the service URL, e.g. --base-url http://127.0.0.1:8787, or leave the flag out for the default.',
    });
  }
  const sources: SettingSources = { globals, env, stored: readStoredConfig(env) };
  const resolved = CONFIG_KEYS.map((spec) => [fieldOf(spec), resolveSetting(spec, sources)] as const);
  return { ...Object.fromEntries(resolved.map(([field, { value }]) => [field, value])), from: Object.fromEntries(resolved) } as unknown as Settings;
}

/** The language to ask for, or undefined for the service's own; a bad value is a usage error naming where it came from. */
export function langInForce(settings: Pick<Settings, 'lang' | 'from'>): string | undefined {
  const { source, origin } = settings.from.lang;
  return source === 'default' ? undefined : parseLangTag(settings.lang, origin ?? 'The stored lang setting');
}

/**
 * The catalogue directory in force and what named it (flag, variable, stored), unless --sandbox or
 * --base-url says where answers come from. The one rule for a run and for a TAB.
 */
export function catalogueInForce(sources: SettingSources): Resolved<string> | undefined {
  const { globals } = sources;
  const other = globals.sandbox ? '--sandbox' : globals.baseUrl !== undefined ? '--base-url' : undefined;
  if (other && globals.catalogue?.trim()) throw new UsageError(`--catalogue cannot be combined with ${other}: each says where the answers come from.`);
  const found = other ? undefined : resolveSetting(setting('catalogue'), sources);
  return found?.value ? (found as Resolved<string>) : undefined;
}
