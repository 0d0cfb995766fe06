/**
 * Checks for setting values, wherever they are given: flags, environment variables and
 * `config set`. Each error names where the value came from (`name`: --lang, EXERCISES_LANG,
 * lang…), so the same check reads right in every place. The parsers of the settings table
 * (settings-table.ts) and of command flags (`--searchlang`, `mirror --langs`) are these.
 */
import { UsageError } from '../errors.js';

/** Language names in English, or undefined where ICU knows no such language (`xx`). */
function languageNames(): Intl.DisplayNames | undefined {
  try {
    const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    // A Node built without ICU's data knows no language at all: then the shape is all we check.
    return names.of('de') === undefined ? undefined : names;
  } catch {
    return undefined;
  }
}

/**
 * A language tag such as en-GB or de-DE: BCP 47 in shape, and a language ICU knows (`xx`,
 * `zz-ZZ` are refused: the service would silently answer in its default language).
 */
export function parseLangTag(value: string, name: string): string {
  const text = value.trim();
  const example = 'a language tag such as en-GB or de-DE';
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(text)) {
    throw new UsageError(`${name} must be ${example}, not "${value}".`);
  }
  const names = languageNames();
  if (names && names.of(text.split('-')[0]!) === undefined) {
    throw new UsageError(`${name} must be ${example}: "${text}" names no language.`, {
      hint: 'The first part is an ISO 639 language code (en, de, es, fr…), the second a region (GB, DE…).',
    });
  }
  return text;
}

/** A whole number from `min` to `max` (no upper bound when `max` is left out). */
export function parseWholeNumber(value: string, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `between ${min} and ${max}`;
    throw new UsageError(`${name} must be a whole number ${range}, not "${value}".`);
  }
  return n;
}

const SWITCH_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false, yes: true, no: false, on: true, off: false };

/** On or off: true/false, 1/0, yes/no, on/off, in any case. */
export function parseSwitch(value: string, name: string): boolean {
  const word = value.trim().toLowerCase();
  if (!Object.hasOwn(SWITCH_WORDS, word)) throw new UsageError(`${name} must be true or false (also 1/0, yes/no, on/off), not "${value}".`);
  return SWITCH_WORDS[word]!;
}
