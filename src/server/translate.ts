/**
 * Languages: `lang` picks `displayName`, `aliases` and `instructions` from an entry's
 * `translations`, field by field, falling back to English; `name` always stays English.
 * An unknown language is not an error: it falls back to the default (en-GB), as docs/design.md says.
 */
import { DEFAULT_LANG } from '../defaults.js';
import type { CatalogueEntry, Translation } from '../catalogue/types.js';

/**
 * The translation of `entry` for `lang`: an exact key, then any case of it, then the same
 * primary language (`de` or `de-AT` finds `de-DE`). Undefined means English.
 */
export function translationFor(entry: CatalogueEntry, lang: string | undefined): Translation | undefined {
  const translations = entry.translations;
  if (!translations || !lang || lang.toLowerCase() === DEFAULT_LANG.toLowerCase()) return undefined;
  if (translations[lang]) return translations[lang];
  const wanted = lang.toLowerCase();
  const keys = Object.keys(translations);
  const sameTag = keys.find((k) => k.toLowerCase() === wanted);
  if (sameTag) return translations[sameTag];
  const primary = wanted.split(/[-_]/)[0];
  const samePrimary = keys.find((k) => k.toLowerCase().split(/[-_]/)[0] === primary);
  return samePrimary ? translations[samePrimary] : undefined;
}

/** The language-dependent text of an entry in `lang`, with English for anything not translated. */
export interface LocalisedText {
  displayName: string;
  aliases: string[];
  instructions: string[];
}

export function localisedText(entry: CatalogueEntry, lang: string | undefined): LocalisedText {
  const t = translationFor(entry, lang);
  return {
    displayName: t?.displayName ?? entry.displayName ?? entry.name,
    aliases: t?.aliases ?? entry.aliases ?? [],
    instructions: t?.instructions ?? entry.instructions ?? [],
  };
}
