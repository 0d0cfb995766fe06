/** commander adapters for flag values shared by several commands (the checks live in src/config/values). */
import { InvalidArgumentError } from 'commander';
import { parseWholeNumber } from '../../config/values.js';
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
