/**
 * What the server sends for an entry: the full record (spec §2.1) or a list summary (§2.2),
 * in the requested language, with premium media only for plans that include them.
 */
import type { CatalogueEntry, ExerciseRecord, ExerciseSummary } from '../catalogue/types.js';
import { localisedText } from './translate.js';

export type Plan = 'free' | 'premium';

function premiumFields(entry: CatalogueEntry, plan: Plan): Pick<ExerciseRecord, 'premiumImages' | 'premiumVideos'> {
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
    instructions: text.instructions,
    ...premiumFields(entry, plan),
  };
}

export function toSummary(entry: CatalogueEntry, lang: string | undefined, plan: Plan): ExerciseSummary {
  const text = localisedText(entry, lang);
  return {
    id: entry.id,
    name: entry.name,
    displayName: text.displayName,
    aliases: text.aliases,
    ...premiumFields(entry, plan),
  };
}
