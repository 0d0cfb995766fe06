/** commander adapters for flag values shared by several commands (the checks live in src/config/values). */
import { InvalidArgumentError } from 'commander';
import { parseWholeNumber } from '../../config/parsers.js';
import { UsageError } from '../../errors.js';

/**
 * commander parser from one of ours (`parse(text, name)`, throwing UsageError): commander
 * reports its own error type as a flag error, naming the flag and the value.
 */
export function settingArg<T>(flag: string, parse: (text: string, name: string) => T): (value: string) => T {
  return (value: string) => {
    try {
      return parse(value, flag);
    } catch (err) {
      throw err instanceof UsageError ? new InvalidArgumentError(err.message) : err;
    }
  };
}

/** commander parser for a whole number within bounds; rejected before any request is made. */
export function intArg(flag: string, min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return settingArg(flag, (text, name) => parseWholeNumber(text, name, min, max));
}

/** commander collector: every occurrence of a repeatable flag, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
