/** JSON text for stdout: the same data, safe for a terminal, and a clean error instead of a stack overflow. */
import { MalformedResponseError } from '../errors.js';
import { UNSAFE_BEYOND_C0 } from '../util/text.js';

/**
 * JSON.stringify for output: a value nested past what it can walk is a malformed answer (exit 6), not a
 * crash. The unsafe characters it leaves raw (C1, bidi, separators, invisible) are written as \uXXXX.
 */
export function jsonText(value: unknown, indent?: number): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, indent);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new MalformedResponseError('The service sent data nested too deeply to print.', { cause: err });
    }
    throw err;
  }
  return text.replace(UNSAFE_BEYOND_C0, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
