/**
 * Where each setting comes from, highest first: flag > environment > stored config > default
 * (docs/design.md "CLI surface"), for every row of the settings table alike. The factory
 * resolves them once per run (ctx.settings()); `config list` shows the same resolution.
 */
import { DEFAULT_GLOBALS, type GlobalOptions, flagName } from './global-flags.js';
import { type Setting, type SettingType, type SettingValue, setting } from './settings-table.js';
import { UsageError } from '../errors.js';
import type { Env } from '../util/user-dirs.js';
import { type StoredConfig, readStoredConfig } from './store.js';
import { parseLangTag } from './values.js';

export type SettingSource = 'flag' | 'env' | 'config' | 'default' | 'sandbox';

export interface Resolved<T> {
  value: T | undefined;
  source: SettingSource;
  /** The flag or environment variable name, for messages ("from EXERCISES_API_KEY"). */
  origin?: string;
}

export interface Settings {
  baseUrl: Resolved<string>;
  apiKey: Resolved<string>;
  /** Undefined unless something sets it: the service's own default is then not sent. */
  lang: Resolved<string>;
  timeoutMs: number;
  retries: number;
  /** Requests allowed this month: --budget > EXERCISES_BUDGET > `config set budget`; null: none. */
  budget: number | null;
  /**
   * The whole command's deadline (--deadline > EXERCISES_DEADLINE > `config set deadline` >
   * DEFAULT_DEADLINE_SECONDS), ms; null for none (0). `source` 'default' lets bulk commands go without.
   */
  deadline: { ms: number | null; source: 'flag' | 'env' | 'config' | 'default'; origin: string };
  /** How long a cached answer is fresh when the service says nothing (`config set cache-ttl`). */
  cacheTtlMs: number;
  /** Plain http:// allowed to a base URL off loopback: --allow-insecure > EXERCISES_ALLOW_INSECURE > `config set allow-insecure`. */
  allowInsecure: Resolved<boolean>;
  /** Media bytes a second for the whole command (--limit-rate > EXERCISES_LIMIT_RATE > `config set limit-rate`); null: no limit. */
  limitRate: number | null;
}

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
  if (!spec.option) return undefined;
  const value = globals[spec.option];
  if (value === undefined || value === DEFAULT_GLOBALS[spec.option]) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  return value;
}

/**
 * One setting's value in force and where it comes from. `check: false` takes variables and
 * stored values as they are (`config list` shows a bad stored value rather than failing on it).
 */
export function resolveSetting(spec: Setting, { globals, env, stored }: SettingSources, check = true): Resolved<SettingValue> {
  const flag = flagGiven(spec, globals);
  if (flag !== undefined) return { value: flag, source: 'flag', origin: flagName(spec.option!) };
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

export function resolveSettings({ env, globals }: { env: Env; globals: GlobalOptions }): Settings {
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
  const deadlineSource = deadline.source as Settings['deadline']['source'];
  return {
    baseUrl: text('base-url'),
    apiKey: text('api-key'),
    lang: lang.source === 'default' ? { value: undefined, source: 'default' } : lang,
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
