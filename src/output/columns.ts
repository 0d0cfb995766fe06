/**
 * The columns of the tabular formats (table, csv, tsv), defined once: for lists
 * (exercise summaries) and for full records (`show`).
 */
import type { ExerciseRecord, ExerciseSummary } from '../catalogue/types.js';

export interface Column<T> {
  /** Header in csv/tsv: the interface's field name, so the files read back naturally. */
  key: string;
  /** Header in a table. */
  title: string;
  value(item: T): string;
}

/** Arrays become one cell, values joined by this. */
export const ARRAY_JOINER = '; ';

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((v) => text(v)).join(ARRAY_JOINER);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function field<T extends Record<string, unknown>>(key: string, title = key.toUpperCase()): Column<T> {
  return { key, title, value: (item) => text(item[key]) };
}

export const LIST_COLUMNS: ReadonlyArray<Column<ExerciseSummary>> = [
  field('id', 'ID'),
  field('name', 'NAME'),
  field('displayName', 'DISPLAY NAME'),
  field('aliases', 'ALIASES'),
  field('premiumImages', 'IMAGES'),
  field('premiumVideos', 'VIDEOS'),
];

/** What a terminal table shows of a list: the rest is one `show` away. */
export const LIST_TABLE_COLUMNS: ReadonlyArray<Column<ExerciseSummary>> = [
  field('id', 'ID'),
  { key: 'name', title: 'NAME', value: (item) => text(item.displayName ?? item.name) },
  field('aliases', 'ALIASES'),
];

export const RECORD_COLUMNS: ReadonlyArray<Column<ExerciseRecord>> = [
  'id',
  'name',
  'displayName',
  'aliases',
  'category',
  'primaryMuscle',
  'secondaryMuscle',
  'force',
  'level',
  'mechanic',
  'equipment',
  'instructions',
  'premiumImages',
  'premiumVideos',
].map((key) => field<ExerciseRecord>(key));
