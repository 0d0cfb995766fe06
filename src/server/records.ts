/**
 * What the server sends for an entry: the full record (spec §2.1) or a list summary (§2.2),
 * in the requested language, with premium media only for plans that include them.
 *
 * Languages: `lang` picks `displayName`, `aliases` and `instructions` from an entry's
 * `translations`, field by field, falling back to English; `name` always stays English.
 * An unknown language is not an error: it falls back to the default (en-GB), as docs/design.md says.
 */
import { SERVICE_LANG } from '../defaults.js';
import type { CatalogueEntry, ExerciseRecord, ExerciseSummary } from '../catalogue/types.js';
import type { ListedEntry } from '../catalogue/load.js';

export type Plan = 'free' | 'premium';

function premiumFields(entry: ListedEntry, plan: Plan): Pick<ExerciseRecord, 'premiumImages' | 'premiumVideos'> {
  // A premium plan always gets both lists, empty when the exercise has no media: an absent list
  // is how a client tells that the plan does not include media at all.
  if (plan !== 'premium') return {};
  return { premiumImages: entry.premiumImages ?? [], premiumVideos: entry.premiumVideos ?? [] };
}

export function toRecord(entry: CatalogueEntry, lang: string | undefined, plan: Plan): ExerciseRecord {
  // Everything the file carries passes through (unknown fields too), except the translations
  // table and, for plans without media, the premium lists.
  const { translations: _translations, premiumImages: _images, premiumVideos: _videos, ...rest } = entry;
  const text = localisedText(entry, lang);
  return {
    ...rest,
    displayName: text.displayName,
    aliases: text.aliases,
    instructions: translationFor(entry, lang)?.instructions ?? entry.instructions ?? [],
    ...premiumFields(entry, plan),
  };
}

export function toSummary(entry: ListedEntry, lang: string | undefined, plan: Plan): ExerciseSummary {
  const text = localisedText(entry, lang);
  return {
    id: entry.id,
    name: entry.name,
    displayName: text.displayName,
    aliases: text.aliases,
    ...premiumFields(entry, plan),
  };
}

/**
 * Which of `tags` answers `lang`: none for the default language (or none asked); else an exact
 * tag, then any case of it, then the same primary language (`de` or `de-AT` finds `de-DE`).
 */
function matchLanguage(tags: readonly string[], lang: string | undefined): string | undefined {
  if (!lang || lang.toLowerCase() === SERVICE_LANG.toLowerCase()) return undefined;
  if (tags.includes(lang)) return lang;
  const wanted = lang.toLowerCase();
  const sameTag = tags.find((k) => k.toLowerCase() === wanted);
  if (sameTag) return sameTag;
  const primary = wanted.split(/[-_]/)[0];
  return tags.find((k) => k.toLowerCase().split(/[-_]/)[0] === primary);
}

/** The key of `entry`'s translation for `lang` (matchLanguage). Undefined means English. */
function translationKey(entry: ListedEntry, lang: string | undefined): string | undefined {
  return entry.translations && matchLanguage(Object.keys(entry.translations), lang);
}

/** The translation of `entry` for `lang`; undefined means English. */
export function translationFor<E extends ListedEntry>(entry: E, lang: string | undefined): NonNullable<E['translations']>[string] | undefined {
  const key = translationKey(entry, lang);
  return key !== undefined ? (entry.translations?.[key] as NonNullable<E['translations']>[string]) : undefined;
}

/**
 * The language a record is answered in, for its Content-Language header: its translation's
 * tag, or the default (en-GB) when it has none for `lang` — so a client can tell the person
 * that what they asked for was not there.
 */
export function recordLanguage(entry: ListedEntry, lang: string | undefined): string {
  return translationKey(entry, lang) ?? SERVICE_LANG;
}

/**
 * The language a list is answered in: the catalogue's own tag for `lang` when any entry is
 * translated into it (the others fall back to English field by field), else the default.
 */
export function listLanguage(languages: readonly string[], lang: string | undefined): string {
  return matchLanguage(languages, lang) ?? SERVICE_LANG;
}

/** The names of an entry in `lang` (its instructions: toRecord), with English for anything not translated. */
export function localisedText(entry: ListedEntry, lang: string | undefined): { displayName: string; aliases: string[] } {
  const t = translationFor(entry, lang);
  return { displayName: t?.displayName ?? entry.displayName ?? entry.name, aliases: t?.aliases ?? entry.aliases ?? [] };
}
