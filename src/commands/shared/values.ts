/** Small validators for flag values shared by several commands. */
import { InvalidArgumentError } from 'commander';
import { UsageError } from '../../errors.js';

/** commander parser for a whole number within bounds; rejected before any request is made. */
export function intArg(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string) => {
    const text = value.trim();
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `between ${min} and ${max}`;
    if (!/^\d+$/.test(text)) throw new InvalidArgumentError(`${flag} must be a whole number ${range}.`);
    const n = Number(text);
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be a whole number ${range}.`);
    return n;
  };
}

/** commander collector: every occurrence of a repeatable flag, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A language tag such as en-GB or de-DE. */
export function parseLangTag(value: string, flag: string): string {
  const text = value.trim();
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(text)) {
    throw new UsageError(`${flag} must be a language tag such as en-GB or de-DE, not "${value}".`);
  }
  return text;
}
