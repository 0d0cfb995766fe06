/**
 * The columns of the tabular formats (table, csv, tsv), defined once: for lists
 * (exercise summaries) and for full records (`show`).
 */
import type { ExerciseRecord, ExerciseSummary } from '../catalogue/types.js';
import { RECORD_FIELDS, SUMMARY_FIELDS } from './fields.js';
import { jsonText } from './json.js';

export interface Column<T> {
  /** Header in csv: the interface's field name, so the files read back naturally. */
  key: string;
  /** Header in a table. */
  title: string;
  value(item: T): string;
}

/** How a terminal table treats a column when the terminal is narrow (src/output/table.ts). */
export interface TableColumn<T> extends Column<T> {
  /** Never cut nor dropped: the id, what people copy into the next command. */
  fixed?: boolean;
  /** Columns it is worth showing at all: below this it is dropped rather than squeezed. */
  minWidth: number;
  /** Dropped, lowest first, when the columns do not fit at their minimum widths; never dropped without one. */
  dropOrder?: number;
  /** Shrunk, lowest first, when the columns do not fit at their natural widths. */
  shrinkOrder: number;
}

/** Arrays become one cell, values joined by this. */
export const ARRAY_JOINER = '; ';

/** One cell's text. Not recursive: an array of arrays (or any nesting) becomes JSON, whatever its depth. */
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value))
    return value
      .map((v) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? jsonText(v) : String(v)))
      .join(ARRAY_JOINER);
  if (typeof value === 'object') return jsonText(value);
  const primitive = value as string | number | boolean; // what is left of JSON
  return String(primitive);
}

function field<T extends Record<string, unknown>>(key: string, title = key.toUpperCase()): Column<T> {
  return { key, title, value: (item) => text(item[key]) };
}

/** csv and tsv of a list: every summary field. */
export const LIST_COLUMNS: ReadonlyArray<Column<ExerciseSummary>> = SUMMARY_FIELDS.map((key) => field<ExerciseSummary>(key));

/**
 * What a terminal table shows of a list: the id whole; the name (display name first) and
 * aliases shrunk first when the terminal is narrow; the premium media names (what
 * `exercises image <id> <name>` takes) when there is room, before the aliases.
 */
export const LIST_TABLE_COLUMNS: ReadonlyArray<TableColumn<ExerciseSummary>> = [
  { ...field('id', 'ID'), fixed: true, minWidth: 0, shrinkOrder: 0 },
  { key: 'name', title: 'NAME', value: (item) => text(item.displayName ?? item.name), minWidth: 30, shrinkOrder: 2 },
  { ...field('aliases', 'ALIASES'), minWidth: 12, dropOrder: 1, shrinkOrder: 1 },
  { ...field('premiumImages', 'IMAGES'), minWidth: 20, dropOrder: 3, shrinkOrder: 3 },
  { ...field('premiumVideos', 'VIDEOS'), minWidth: 20, dropOrder: 2, shrinkOrder: 3 },
];

/** csv and tsv of full records: every record field. */
export const RECORD_COLUMNS: ReadonlyArray<Column<ExerciseRecord>> = RECORD_FIELDS.map((key) => field<ExerciseRecord>(key));
