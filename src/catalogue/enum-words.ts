/**
 * The enum values of spec §2.4 as people type them, in one place for everything that shows
 * them: completion offers these words and `--help` lists them, so the two never disagree.
 */
import { ENUMS, type EnumName } from './enums.js';
import { ENUM_SYNONYMS } from './enum-synonyms.js';
import { orList } from './suggest.js';

/**
 * An enum value as people type it, which the CLI's friendly parsing (enum-parse.ts) accepts:
 * lower case, words apart (`lower back`), single letters joined (`E_Z_CURL_BAR` → `ez curl bar`).
 */
export function friendlyEnumValue(value: string): string {
  const words: string[] = [];
  let letters = '';
  for (const part of value.toLowerCase().split('_')) {
    if (part.length === 1) {
      letters += part;
      continue;
    }
    if (letters) words.push(letters);
    letters = '';
    words.push(part);
  }
  if (letters) words.push(letters);
  return words.join(' ');
}

/** An enum's values in the friendly spelling, alphabetical (the order a reader scans for). */
function friendlyEnumValues(name: EnumName): string[] {
  return (ENUMS[name] as readonly string[]).map(friendlyEnumValue).sort();
}

/** How many synonyms help names: enough to show that everyday words work, short enough to read. */
const HELP_SYNONYMS = 5;

/**
 * A few everyday words help mentions for an enum: one per value (the first listed for it), only
 * words that stand for a single value and are not merely another form of it (`LOWERBACK`,
 * `SHOULDER`, `PULLING`: the parsing takes those anyway, and they teach the reader nothing).
 */
function helpSynonyms(name: EnumName): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const [word, values] of Object.entries(ENUM_SYNONYMS[name]) as [string, readonly string[]][]) {
    const value = values[0]!;
    const bare = value.replace(/_/g, '');
    if (values.length !== 1 || seen.has(value) || word.startsWith(bare) || bare.startsWith(word)) continue;
    seen.add(value);
    words.push(word.toLowerCase());
  }
  return words.slice(0, HELP_SYNONYMS);
}

/** The list a flag's help gives for an enum: `a, b or c (also x, y…)`. */
export function enumHelpList(name: EnumName): string {
  const values = friendlyEnumValues(name);
  const synonyms = helpSynonyms(name);
  const list = orList(values);
  return synonyms.length ? `${list} (also everyday words such as ${synonyms.join(', ')})` : list;
}
