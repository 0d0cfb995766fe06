/**
 * Reading the query string: parameters the way docs/design.md decides (array filters accept
 * repeated keys and comma lists alike; a single-valued parameter given twice is a 400 naming
 * it), and the filters of /exercise/query (spec §4.1): filters combine with AND, the values of
 * one filter with OR. `name` and `alias` are case- and accent-insensitive substrings, matched in
 * the `searchlang` language (default: `lang`), with English where an entry has no translation.
 */
import { ENUM_FILTERS, ENUMS, type EnumFilterParam } from '../catalogue/enums.js';
import type { ListedEntry } from '../catalogue/load.js';
import { badParameter } from './http-error.js';
import { localisedText, translationFor } from './records.js';

/** The one value of `name`, or undefined when absent. */
export function singleParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw badParameter(name, `Parameter ${name} was given ${values.length} times; give it once.`);
  return values[0];
}

/** Every value of `name`, from repeated keys and comma lists; empty items are dropped. */
function listParam(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Lower-case, without combining marks (é → e, ü → u), ß as ss, runs of white space as one space. */
function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss').replace(/\s+/g, ' ').trim();
}

/** The filters of a query: `name` and `alias` as folded search text; the accepted values per enum filter (one absent is not in the map). */
export function parseQueryFilter(params: URLSearchParams, lang: string | undefined) {
  const name = singleParam(params, 'name');
  const alias = singleParam(params, 'alias');
  const searchLang = singleParam(params, 'searchlang') || lang;
  const enums = new Map<EnumFilterParam, ReadonlySet<string>>();
  for (const filter of ENUM_FILTERS) {
    const values = listParam(params, filter.param);
    if (values.length === 0) continue;
    const valid = ENUMS[filter.enum] as readonly string[];
    const unknown = values.find((v) => !valid.includes(v));
    if (unknown !== undefined) throw badParameter(filter.param, `Unknown ${filter.param} value "${unknown}"; valid values: ${valid.join(', ')}.`);
    enums.set(filter.param, new Set(values));
  }
  const folded = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : foldText(s));
  return { name: folded(name), alias: folded(alias), searchLang, enums };
}

/** The entry's value(s) for an enum filter, as a list (null and absent give an empty list). */
function enumValuesOf(entry: ListedEntry, param: EnumFilterParam): readonly string[] {
  const value = entry[param];
  return value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export function matchesFilter(entry: ListedEntry, filter: ReturnType<typeof parseQueryFilter>): boolean {
  for (const [param, wanted] of filter.enums) {
    if (!enumValuesOf(entry, param).some((v) => wanted.has(v))) return false;
  }
  if (filter.name !== undefined || filter.alias !== undefined) {
    // In searchlang's words when the entry is translated into it, else in English (name and displayName).
    const translated = translationFor(entry, filter.searchLang);
    const text = localisedText(entry, filter.searchLang);
    const names = translated?.displayName !== undefined ? [translated.displayName] : [entry.name, text.displayName];
    const anyContains = (haystacks: readonly string[], folded: string): boolean => haystacks.some((h) => foldText(h).includes(folded));
    if (filter.name !== undefined && !anyContains(names, filter.name)) return false;
    if (filter.alias !== undefined && !anyContains(text.aliases, filter.alias)) return false;
  }
  return true;
}
