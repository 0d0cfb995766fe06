/** JSON text for stdout: the same data, safe for a terminal, and a clean error instead of a stack overflow. */
import { MalformedResponseError } from '../errors.js';
import { UNSAFE_BEYOND_C0 } from '../util/text.js';

/**
 * JSON.stringify, for output. A value nested past what JSON.stringify can walk (it overflows
 * the stack) is a malformed answer (exit 6), not a crash; the transport refuses such answers
 * earlier (src/catalogue/validate.ts), this is the last line.
 *
 * JSON.stringify escapes C0 controls but leaves the sanitiser's other unsafe characters raw
 * (C1 controls, bidi controls, line separators, invisible format characters): a terminal
 * may act on them or reorder text. They are written as \uXXXX; the parsed value is unchanged.
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
