/**
 * Checks for setting values, wherever they are given: flags, environment variables and
 * `config set`. Each error names where the value came from (`name`: --lang, EXERCISES_LANG,
 * lang…), so the same check reads right in every place.
 */
import { UsageError } from '../errors.js';
import { DEADLINE_MAX_SECONDS } from '../defaults.js';

/** A BCP 47-looking language tag such as en-GB or de-DE. */
export function parseLangTag(value: string, name: string): string {
  const text = value.trim();
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(text)) {
    throw new UsageError(`${name} must be a language tag such as en-GB or de-DE, not "${value}".`);
  }
  return text;
}

/** A whole number from `min` to `max` (no upper bound when `max` is left out). */
export function parseWholeNumber(value: string, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `between ${min} and ${max}`;
    throw new UsageError(`${name} must be a whole number ${range}.`);
  }
  return n;
}

/** A deadline in seconds (`90`, `90s`, `2m`), 0 for none, at most DEADLINE_MAX_SECONDS. */
export function parseDeadlineSeconds(value: string, name: string): number {
  const match = /^(\d+)\s*([smh]?)$/i.exec(value.trim());
  const seconds = match ? Number(match[1]) * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[(match[2] || 's').toLowerCase()]! : NaN;
  if (!Number.isSafeInteger(seconds) || seconds > DEADLINE_MAX_SECONDS) {
    throw new UsageError(`${name} must be a number of seconds such as 60, 90s or 2m (0 for none), at most ${DEADLINE_MAX_SECONDS}, not "${value}".`);
  }
  return seconds;
}
