/**
 * The known config keys, in one table: what each means, which environment variable
 * overrides it, and how a value given to `config set` is checked. A later setting slots
 * in by adding a row here; `config get|set|unset|list` and the settings resolution read it.
 */
import { closestWords, orList } from '../catalogue/suggest.js';
import { UsageError } from '../errors.js';
import { parseBaseUrl } from '../util/url-policy.js';
import {
  CACHE_TTL_MAX_SECONDS,
  DEFAULT_BASE_URL,
  DEFAULT_LANG,
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_CACHE_TTL_SECONDS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  RETRIES_MAX,
  TIMEOUT_MAX_MS,
} from '../defaults.js';
import { parseDeadlineSeconds, parseLangTag, parseWholeNumber } from './values.js';
import { formatDuration, parseDuration } from './duration.js';
import { resolve } from 'node:path';
import { catalogueDirProblem } from '../catalogue/catalogue-dir.js';

export interface ConfigKeySpec {
  key: string;
  description: string;
  /** Environment variable that takes precedence over the stored value. */
  env?: string;
  /** Never printed in full (`config list` masks it). */
  secret?: boolean;
  /** Why `config set` refuses it, when it has its own command (the key: `auth login`). */
  setWith?: string;
  /** What is in force when nothing sets it (`config get`/`list` show it); absent: nothing is sent. */
  defaultValue?: string | number;
  /** How a value is shown to a person (`config get`, `config list`): a duration as `24h`. */
  display?(value: string | number): string;
  /** Checks and normalises a value; throws UsageError naming the key. */
  parse(value: string): string | number;
}

/** A catalogue directory as stored: absolute, and holding exercises.jsonl now. */
function parseCatalogueSetting(value: string): string {
  const problem = catalogueDirProblem(value.trim());
  if (problem) throw new UsageError(`catalogue: ${problem}.`, { hint: '`exercises mirror <dir>` writes a catalogue directory.' });
  return resolve(value.trim());
}

/** A base URL as stored: checked like every other (src/util/url-policy.ts), without a trailing slash. */
function parseBaseUrlSetting(value: string): string {
  return parseBaseUrl(value).href.replace(/\/+$/, '');
}

/**
 * A time to live as stored, in seconds: plain seconds (`3600`) or a number with a unit
 * (`90m`, `24h`, `7d`; duration.ts). 0 means every answer is revalidated (or fetched) each
 * time it is used.
 */
export function parseDurationSeconds(value: string, name: string): number {
  return parseDuration(value, name, { unit: 's', min: 0, max: CACHE_TTL_MAX_SECONDS });
}

export const CONFIG_KEYS: readonly ConfigKeySpec[] = [
  {
    key: 'api-key',
    description: 'API key sent as X-API-Key (stored by `exercises auth login`)',
    env: 'EXERCISES_API_KEY',
    secret: true,
    setWith: 'exercises auth login',
    parse: (value) => value.trim(),
  },
  {
    key: 'base-url',
    description: `service base URL (default ${DEFAULT_BASE_URL})`,
    env: 'EXERCISES_BASE_URL',
    defaultValue: DEFAULT_BASE_URL,
    parse: parseBaseUrlSetting,
  },
  {
    key: 'lang',
    description: `translation language, e.g. de-DE (default: the service’s, ${DEFAULT_LANG})`,
    env: 'EXERCISES_LANG',
    defaultValue: DEFAULT_LANG,
    parse: (value) => parseLangTag(value, 'lang'),
  },
  {
    key: 'timeout',
    description: `how long a request may go without progress: 30s, 2m, 500ms or milliseconds (default ${formatDuration(DEFAULT_TIMEOUT_MS, 'ms')})`,
    defaultValue: DEFAULT_TIMEOUT_MS,
    display: (value) => (typeof value === 'number' ? formatDuration(value, 'ms') : value),
    parse: (value) => parseDuration(value, 'timeout', { unit: 'ms', min: 1, max: TIMEOUT_MAX_MS }),
  },
  {
    key: 'deadline',
    description: `seconds a whole command may spend waiting for the service, retries included: 90, 90s, 2m; 0 for none (default ${DEFAULT_DEADLINE_SECONDS}; none for download and mirror)`,
    env: 'EXERCISES_DEADLINE',
    defaultValue: DEFAULT_DEADLINE_SECONDS,
    display: (value) => (typeof value === 'number' ? formatDuration(value, 's') : value),
    parse: (value) => parseDeadlineSeconds(value, 'deadline'),
  },
  {
    key: 'retries',
    description: `retries for failed idempotent requests (default ${DEFAULT_RETRIES})`,
    defaultValue: DEFAULT_RETRIES,
    parse: (value) => parseWholeNumber(value, 'retries', 0, RETRIES_MAX),
  },
  {
    key: 'budget',
    description: 'requests allowed per calendar month (UTC); a command stops before passing it (default: none)',
    env: 'EXERCISES_BUDGET',
    parse: (value) => parseWholeNumber(value, 'budget', 0),
  },
  {
    key: 'cache-ttl',
    description: `how long a cached answer is used without asking the service: 24h, 90m, 3600s or seconds (default ${formatDuration(DEFAULT_CACHE_TTL_SECONDS, 's')})`,
    defaultValue: DEFAULT_CACHE_TTL_SECONDS,
    display: (value) => (typeof value === 'number' ? formatDuration(value, 's') : value),
    parse: (value) => parseDurationSeconds(value, 'cache-ttl'),
  },
  {
    key: 'catalogue',
    description: 'catalogue directory every command answers from, in-process and offline (see `exercises mirror`)',
    env: 'EXERCISES_CATALOGUE',
    parse: parseCatalogueSetting,
  },
];

export function configKeySpec(key: string): ConfigKeySpec {
  const spec = CONFIG_KEYS.find((k) => k.key === key);
  if (!spec) {
    const near = closestWords(
      key,
      CONFIG_KEYS.map((k) => k.key),
    );
    throw new UsageError(`Unknown config key "${key}".${near.length > 0 ? ` Did you mean ${orList(near)}?` : ''}`, {
      hint: `Known keys: ${CONFIG_KEYS.map((k) => k.key).join(', ')}.`,
      details: { key, known: CONFIG_KEYS.map((k) => k.key) },
    });
  }
  return spec;
}

/** How a key is shown (`auth status`, `config list`): src/util/redact.ts, with the rest of the key's redaction. */
export { maskSecret } from '../util/redact.js';
