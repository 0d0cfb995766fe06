/**
 * Where each setting comes from, highest first: flag > environment > stored config > default
 * (DESIGN.md "CLI surface"). Commands and the API factory read resolved values from here.
 */
import type { Context } from '../context.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './defaults.js';
import { readStoredConfig } from './store.js';

export const DEFAULT_BASE_URL = 'https://api.wrkout.xyz';

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

function storedNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function resolveSettings(ctx: Pick<Context, 'env' | 'globals'>): Settings {
  const stored = readStoredConfig();
  const { globals, env } = ctx;
  const baseUrl = pick({ value: globals.baseUrl, name: '--base-url' }, { value: env.EXERCISES_BASE_URL, name: 'EXERCISES_BASE_URL' }, stored['base-url']);
  if (baseUrl.value === undefined) baseUrl.value = DEFAULT_BASE_URL;
  return {
    baseUrl,
    apiKey: pick({ value: globals.apiKey, name: '--api-key' }, { value: env.EXERCISES_API_KEY, name: 'EXERCISES_API_KEY' }, stored['api-key']),
    lang: pick({ value: globals.lang, name: '--lang' }, { value: env.EXERCISES_LANG, name: 'EXERCISES_LANG' }, stored.lang),
    timeoutMs: globals.timeout ?? storedNumber(stored.timeout) ?? DEFAULT_TIMEOUT_MS,
    retries: globals.retries ?? storedNumber(stored.retries) ?? DEFAULT_RETRIES,
  };
}
