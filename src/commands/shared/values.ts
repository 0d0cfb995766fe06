/** commander adapters for flag values shared by several commands (the checks live in src/config/values). */
import { InvalidArgumentError } from 'commander';
import { parseWholeNumber } from '../../config/values.js';
import { type DurationRule, parseDuration } from '../../config/duration.js';
import { UsageError } from '../../errors.js';

/** commander parser for a whole number within bounds; rejected before any request is made. */
export function intArg(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string) => {
    try {
      return parseWholeNumber(value, flag, min, max);
    } catch (err) {
      // commander reports its own error type as a flag error, naming the flag and the value.
      throw err instanceof UsageError ? new InvalidArgumentError(err.message) : err;
    }
  };
}

/** commander collector: every occurrence of a repeatable flag, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** commander parser for a duration (`5s`, `500ms`, `2m`, or a bare number in the rule's unit), as the settings take it. */
export function durationArg(flag: string, rule: DurationRule): (value: string) => number {
  return (value: string) => {
    try {
      return parseDuration(value, flag, rule);
    } catch (err) {
      throw err instanceof UsageError ? new InvalidArgumentError(err.message) : err;
    }
  };
}
