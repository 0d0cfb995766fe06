/**
 * Where each setting comes from, highest first: flag > environment > stored config > default
 * (docs/design.md "CLI surface"). The factory resolves them once per run (ctx.settings()).
 */
import { type GlobalOptions, flagName } from './global-flags.js';
import { configKeySpec } from './keys.js';
import { UsageError } from '../errors.js';
import {
  CACHE_TTL_MAX_SECONDS,
  DEADLINE_MAX_SECONDS,
  DEFAULT_BASE_URL,
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_CACHE_TTL_SECONDS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  RETRIES_MAX,
  TIMEOUT_MAX_MS,
} from '../defaults.js';
import type { Env } from '../util/user-dirs.js';
import { readStoredConfig } from './store.js';
import { parseDeadlineSeconds, parseLangTag, parseWholeNumber } from './values.js';

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
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function pick(flag: { value: string | undefined; name: string }, env: { value: string | undefined; name: string }, stored: unknown): Resolved<string> {
  const f = nonEmpty(flag.value);
  if (f !== undefined) return { value: f, source: 'flag', origin: flag.name };
  const e = nonEmpty(env.value);
  if (e !== undefined) return { value: e, source: 'env', origin: env.name };
  if (typeof stored === 'string' && stored.trim() !== '') return { value: stored.trim(), source: 'config' };
  return { value: undefined, source: 'default' };
}

/** A stored whole number, held to the same bounds as `config set` (the file may be edited by hand). */
function storedNumber(value: unknown, key: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`The stored ${key} must be a whole number between ${min} and ${max}, not ${JSON.stringify(value)}.`, {
      hint: `Fix it with \`exercises config set ${key} <n>\` or remove it with \`exercises config unset ${key}\`.`,
    });
  }
  return value;
}

/** EXERCISES_BUDGET, when set and not empty: a whole number, or a usage error naming the variable. */
function envBudget(env: Env): number | undefined {
  const name = configKeySpec('budget').env!;
  const text = nonEmpty(env[name]);
  return text === undefined ? undefined : parseWholeNumber(text, name, 0);
}

/** A string setting: its global flag, else its config key's environment variable, else the stored value. */
function fromFlagEnvOrConfig(
  flag: 'baseUrl' | 'apiKey' | 'lang',
  key: string,
  globals: GlobalOptions,
  env: Env,
  stored: Record<string, unknown>,
): Resolved<string> {
  const variable = configKeySpec(key).env!;
  return pick({ value: globals[flag], name: flagName(flag) }, { value: env[variable], name: variable }, stored[key]);
}

function resolveDeadline(flag: number | undefined, fromEnv: string | undefined, stored: unknown): Settings['deadline'] {
  const made = (seconds: number, source: Settings['deadline']['source'], origin: string): Settings['deadline'] => ({
    ms: seconds === 0 ? null : seconds * 1000,
    source,
    origin,
  });
  if (flag !== undefined) return made(flag, 'flag', '--deadline');
  const text = nonEmpty(fromEnv);
  if (text !== undefined) return made(parseDeadlineSeconds(text, 'EXERCISES_DEADLINE'), 'env', 'EXERCISES_DEADLINE');
  const kept = storedNumber(stored, 'deadline', 0, DEADLINE_MAX_SECONDS);
  if (kept !== undefined) return made(kept, 'config', 'the deadline setting');
  return made(DEFAULT_DEADLINE_SECONDS, 'default', 'the default; --deadline changes it');
}

export function resolveSettings({ env, globals }: { env: Env; globals: GlobalOptions }): Settings {
  // An empty flag is a mistake (an unset variable in a script), not a wish for the default service.
  if (globals.baseUrl !== undefined && globals.baseUrl.trim() === '') {
    throw new UsageError('--base-url is empty.', {
      hint: 'Give the service URL, e.g. --base-url http://127.0.0.1:8787, or leave the flag out for the default.',
    });
  }
  const stored = readStoredConfig(env);
  const baseUrl = fromFlagEnvOrConfig('baseUrl', 'base-url', globals, env, stored);
  if (baseUrl.value === undefined) baseUrl.value = DEFAULT_BASE_URL;
  return {
    baseUrl,
    apiKey: fromFlagEnvOrConfig('apiKey', 'api-key', globals, env, stored),
    lang: fromFlagEnvOrConfig('lang', 'lang', globals, env, stored),
    timeoutMs: globals.timeout ?? storedNumber(stored.timeout, 'timeout', 1, TIMEOUT_MAX_MS) ?? DEFAULT_TIMEOUT_MS,
    retries: globals.retries ?? storedNumber(stored.retries, 'retries', 0, RETRIES_MAX) ?? DEFAULT_RETRIES,
    budget: globals.budget ?? envBudget(env) ?? storedNumber(stored.budget, 'budget', 0, Number.MAX_SAFE_INTEGER) ?? null,
    deadline: resolveDeadline(globals.deadline, env.EXERCISES_DEADLINE, stored.deadline),
    cacheTtlMs: (storedNumber(stored['cache-ttl'], 'cache-ttl', 0, CACHE_TTL_MAX_SECONDS) ?? DEFAULT_CACHE_TTL_SECONDS) * 1000,
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
