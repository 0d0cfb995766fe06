/**
 * Friendly enum parsing for the CLI: any case, spaces or hyphens for underscores,
 * and the dots-free spelling of E_Z_CURL_BAR (`ez curl bar`, `ez-bar`…). An unknown
 * value is a usage error that names the valid values and the closest one.
 */
import { closest, distance } from 'fastest-levenshtein';
import { UsageError } from '../errors.js';
import { ENUMS, type EnumName, type EnumValue } from './enums.js';

/** Upper-case, with every run of spaces, hyphens, dots, slashes and underscores as one underscore. */
function canonical(input: string): string {
  return input
    .trim()
    .toUpperCase()
    .replace(/[\s\-_./]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** The value with every separator removed, so `EZ_CURL_BAR` and `E_Z_CURL_BAR` compare equal. */
function squashed(value: string): string {
  return value.replace(/_/g, '');
}

/**
 * Parse one user-supplied value of enum `name`.
 * @param flag how the user gave it (e.g. `--equipment`), for the error message
 */
export function parseEnumValue<N extends EnumName>(name: N, input: string, flag?: string): EnumValue<N> {
  const values = ENUMS[name] as readonly string[];
  const wanted = canonical(input);
  const exact = values.find((v) => v === wanted);
  if (exact) return exact as EnumValue<N>;
  const bySquash = values.find((v) => squashed(v) === squashed(wanted));
  if (bySquash) return bySquash as EnumValue<N>;

  const suggestion = closest(wanted, values);
  const near = suggestion !== undefined && distance(wanted, suggestion) <= Math.max(2, Math.floor(suggestion.length / 3));
  const label = flag ? `${flag} value` : `${name} value`;
  throw new UsageError(`Unknown ${label} "${input}".${near ? ` Did you mean ${suggestion}?` : ''}`, {
    hint: `Valid values: ${values.join(', ')} (any case; spaces or hyphens work for underscores).`,
    details: { enum: name, value: input, valid: [...values], ...(near ? { suggestion } : {}) },
  });
}

/**
 * Parse a list of user values where each entry may itself be a comma list
 * (`--category strength,cardio --category plyometrics`). Duplicates are dropped, order kept.
 */
export function parseEnumList<N extends EnumName>(name: N, inputs: readonly string[], flag?: string): EnumValue<N>[] {
  const out: EnumValue<N>[] = [];
  for (const input of inputs) {
    for (const part of input.split(',')) {
      if (part.trim() === '') continue;
      const value = parseEnumValue(name, part, flag);
      if (!out.includes(value)) out.push(value);
    }
  }
  return out;
}
