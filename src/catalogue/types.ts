/** Record shapes of the service interface (spec §2.1–2.3). */
import type { Category, Equipment, Force, Level, Mechanic, Muscle } from './enums.js';

/** Full record returned by GET /exercise/{exerciseId}. Only `name` is required. */
export interface ExerciseRecord {
  name: string;
  id?: string;
  displayName?: string;
  aliases?: string[];
  category?: Category;
  primaryMuscle?: Muscle[];
  secondaryMuscle?: Muscle[];
  force?: Force | null;
  level?: Level | null;
  mechanic?: Mechanic | null;
  equipment?: Equipment | null;
  instructions?: string[];
  premiumImages?: string[];
  premiumVideos?: string[];
  /** Unknown fields from the service pass through untouched. */
  [extra: string]: unknown;
}

/** Item of a list response: the record's names and media, with its id. */
export type ExerciseSummary = Pick<ExerciseRecord, 'name' | 'displayName' | 'aliases' | 'premiumImages' | 'premiumVideos'> & {
  id: string;
  [extra: string]: unknown;
};

export interface Pagination {
  total: number;
  /** Our server's cursors; the real service may send others or none. */
  next?: string | null;
  prev?: string | null;
  [extra: string]: unknown;
}

/** Response of /exercise/query and /exercise/exerciseIds. */
export interface ListResponse {
  exercises: ExerciseSummary[];
  pagination: Pagination;
  [extra: string]: unknown;
}

/** Text a catalogue directory may carry per language. */
export type Translation = Pick<ExerciseRecord, 'displayName' | 'aliases' | 'instructions'>;

/** A line of `<dir>/exercises.jsonl`: a full record with an id, plus optional translations. */
export interface CatalogueEntry extends ExerciseRecord {
  id: string;
  translations?: Record<string, Translation>;
}
