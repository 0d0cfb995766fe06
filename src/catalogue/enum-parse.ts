/**
 * Friendly enum parsing: any case and separators, singular or plural, and the words people use (`abs`,
 * `quads`). A word naming several values or none is a usage error naming the valid and closest ones.
 */
import { UsageError } from '../errors.js';
import { ENUMS, type EnumName, type EnumValue } from './enums.js';
import { closest, orList } from './suggest.js';
import { enumHelpList, enumSynonyms, friendlyEnumValue } from './enum-words.js';

/** A value with every separator removed, so `EZ_CURL_BAR` and `E_Z_CURL_BAR` compare equal. */
function squashed(value: string): string {
  return value.replace(/_/g, '');
}

/** `BICEP` ~ `BICEPS`, `KETTLEBELL` ~ `KETTLEBELLS`, `BARBELLS` ~ `BARBELL`. */
function singular(value: string): string {
  return value.endsWith('S') ? value.slice(0, -1) : value;
}

/** The values a word stands for (any case and separators): the value, its plural or singular, or a synonym's values. */
export function enumMeaning<N extends EnumName>(name: N, input: string): readonly EnumValue<N>[] {
  const values = ENUMS[name] as readonly EnumValue<N>[];
  const s = input.toUpperCase().replace(/[\s\-_./]+/g, '');
  const same = values.filter((v) => squashed(v) === s);
  if (same.length > 0) return same;
  const byNumber = values.filter((v) => singular(squashed(v)) === singular(s));
  if (byNumber.length > 0) return byNumber;
  const synonyms = enumSynonyms(name);
  return synonyms[s] ?? synonyms[singular(s)] ?? [];
}

/** The values nearest an unknown word, by the values' and synonyms' spelling. */
export function enumSuggestions<N extends EnumName>(name: N, input: string, max = 3): EnumValue<N>[] {
  const synonyms = enumSynonyms(name);
  const spellings: Array<{ word: string; values: readonly EnumValue<N>[] }> = [
    ...(ENUMS[name] as readonly EnumValue<N>[]).map((v) => ({ word: v, values: [v] })),
    ...Object.entries(synonyms).map(([word, values]) => ({ word, values })),
  ];
  const out: EnumValue<N>[] = [];
  for (const { values } of closest(input, spellings, (s) => s.word, 5)) {
    for (const v of values) if (!out.includes(v)) out.push(v);
  }
  return out.slice(0, max);
}

/** One value of enum `name` as given; `flag` names how, for the message. */
export function parseEnumValue<N extends EnumName>(name: N, input: string, flag?: string): EnumValue<N> {
  const values = ENUMS[name] as readonly string[];
  const meaning = enumMeaning(name, input);
  if (meaning.length === 1) return meaning[0]!;

  const label = flag ? `${flag} value` : `${name} value`;
  // In words as people type them; the JSON details keep the service's spelling.
  const hint = `Valid values: ${enumHelpList(name)}; any case.`;
  if (meaning.length > 1) {
    throw new UsageError(`The ${label} "${input}" could mean ${orList(meaning.map(friendlyEnumValue))}; give one of them.`, {
      hint,
      details: { enum: name, value: input, valid: [...values], suggestions: [...meaning] },
    });
  }
  const suggestions = enumSuggestions(name, input);
  throw new UsageError(`Unknown ${label} "${input}".${suggestions.length > 0 ? ` Did you mean ${orList(suggestions.map(friendlyEnumValue))}?` : ''}`, {
    hint,
    details: { enum: name, value: input, valid: [...values], ...(suggestions.length > 0 ? { suggestion: suggestions[0], suggestions } : {}) },
  });
}

/** A list of values, each entry maybe a comma list; duplicates dropped, order kept. */
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
