/**
 * What each output shows, defined once: the fields of each kind (the names `--json <fields>` takes), the
 * columns of table, csv and tsv, and their cells as csv (RFC 4180) and tsv lines, cleaned of controls.
 */
import type { ExerciseRecord, ExerciseSummary } from '../catalogue/types.js';
import { UsageError } from '../errors.js';
import { closestWords, orList } from '../catalogue/suggest.js';
import { cleanText } from '../util/text.js';
import { jsonText } from './json.js';

type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

/** Fails to compile when `List` misses a named field of `T` or names one it lacks. */
type Exactly<T, List extends readonly string[]> = [Exclude<KnownKeys<T>, List[number]>, Exclude<List[number], KnownKeys<T>>] extends [never, never]
  ? List
  : never;

/** Fields of a list item, in the service's order. */
const SUMMARY = ['id', 'name', 'displayName', 'aliases', 'premiumImages', 'premiumVideos'] as const;
export const SUMMARY_FIELDS: Exactly<ExerciseSummary, typeof SUMMARY> = SUMMARY;

/** Fields of a full record, in the service's order. */
const RECORD = [
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
] as const;
export const RECORD_FIELDS: Exactly<ExerciseRecord, typeof RECORD> = RECORD;

export type OutputKind = 'summary' | 'record';

/** `id, name` → ['id', 'name'], checked against `kind`'s fields (an unknown one or none is a usage error); duplicates dropped. */
export function parseJsonFields(value: string, kind: OutputKind): string[] {
  const valid: readonly string[] = kind === 'summary' ? SUMMARY_FIELDS : RECORD_FIELDS;
  const fields = [...new Set(value.split(',').map((f) => f.trim()))].filter((f) => f !== '');
  if (fields.length === 0) throw new UsageError(`--json needs field names after it, or nothing at all. Valid fields: ${valid.join(', ')}.`);
  const unknown = fields.filter((f) => !valid.includes(f));
  if (unknown.length > 0) {
    const names = unknown.map((f) => JSON.stringify(f)).join(', ');
    const near = [...new Set(unknown.flatMap((f) => closestWords(f, valid, 1)))];
    const meant = near.length > 0 ? ` Did you mean ${orList(near)}?` : '';
    throw new UsageError(`Unknown ${unknown.length === 1 ? 'field' : 'fields'} for --json: ${names}.${meant}`, {
      hint: `Valid fields: ${valid.join(', ')}.`,
    });
  }
  return fields;
}

/** The fields `--json id,name` asked for; undefined keeps every field. */
export function requestedFields(globals: { json?: unknown }, kind: OutputKind): string[] | undefined {
  const raw = globals.json;
  if (typeof raw === 'string') return parseJsonFields(raw, kind);
  if (Array.isArray(raw)) return parseJsonFields(raw.join(','), kind);
  return undefined;
}

/** A copy of `item` with only `fields`, in that order. */
export function selectFields<T extends Record<string, unknown>>(item: T, fields: readonly string[] | undefined): Record<string, unknown> {
  if (fields === undefined) return item;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(item, f)) out[f] = item[f];
  return out;
}

export interface Column<T> {
  /** Header in csv: the field name, so files read back naturally. */
  key: string;
  title: string;
  value(item: T): string;
}

/** How a terminal table treats a column when the terminal is narrow. */
export interface TableColumn<T> extends Column<T> {
  /** Never cut nor dropped: the id, what people copy. */
  fixed?: boolean;
  /** Below this it is dropped rather than squeezed. */
  minWidth: number;
  /** Dropped, lowest first, when minimum widths do not fit; never without one. */
  dropOrder?: number;
  /** Shrunk, lowest first, when natural widths do not fit. */
  shrinkOrder: number;
}

export const ARRAY_JOINER = '; ';

/** A value's text in a cell: nothing for null, an object (or nested array) as JSON. */
const cell = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : jsonText(v));

/** One cell's text; any nesting becomes JSON. */
function text(value: unknown): string {
  return Array.isArray(value) ? value.map(cell).join(ARRAY_JOINER) : cell(value);
}

function field<T extends Record<string, unknown>>(key: string, title = key.toUpperCase()): Column<T> {
  return { key, title, value: (item) => text(item[key]) };
}

export const LIST_COLUMNS: ReadonlyArray<Column<ExerciseSummary>> = SUMMARY_FIELDS.map((key) => field<ExerciseSummary>(key));

/** A list's terminal table: the id whole, name and aliases shrunk first, the media names when there is room. */
export const LIST_TABLE_COLUMNS: ReadonlyArray<TableColumn<ExerciseSummary>> = [
  { ...field('id', 'ID'), fixed: true, minWidth: 0, shrinkOrder: 0 },
  { key: 'name', title: 'NAME', value: (item) => text(item.displayName ?? item.name), minWidth: 30, shrinkOrder: 2 },
  { ...field('aliases', 'ALIASES'), minWidth: 12, dropOrder: 1, shrinkOrder: 1 },
  { ...field('premiumImages', 'IMAGES'), minWidth: 20, dropOrder: 3, shrinkOrder: 3 },
  { ...field('premiumVideos', 'VIDEOS'), minWidth: 20, dropOrder: 2, shrinkOrder: 3 },
];

export const RECORD_COLUMNS: ReadonlyArray<Column<ExerciseRecord>> = RECORD_FIELDS.map((key) => field<ExerciseRecord>(key));

/** A cell a spreadsheet would run as a formula (CSV injection) gets a leading `'`, shown as text. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end CRLF. */
export function csvLine(values: readonly string[]): string {
  return `${values
    .map((raw) => {
      const clean = cleanText(raw);
      const v = FORMULA_START.test(clean) ? `'${clean}` : clean;
      return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
    })
    .join(',')}\r\n`;
}

/** tsv: backslash, tab, newline and CR escaped, so every record is one line. */
export function tsvLine(values: readonly string[]): string {
  return `${values
    .map((raw) => cleanText(raw).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')))
    .join('\t')}\n`;
}

export function delimitedLine(format: 'csv' | 'tsv', values: readonly string[]): string {
  return format === 'csv' ? csvLine(values) : tsvLine(values);
}

/** The line formats lists and records share: jsonl, csv with its header first, tsv without one. */
export function itemLines<T extends Record<string, unknown>>(
  format: 'jsonl' | 'csv' | 'tsv',
  columns: ReadonlyArray<Column<T>>,
  fields: readonly string[] | undefined,
): { line(item: T): string; end(): string } {
  let header = format === 'csv' ? csvLine(columns.map((c) => c.key)) : '';
  const takeHeader = (): string => {
    const once = header;
    header = '';
    return once;
  };
  const body = (item: T): string =>
    format === 'jsonl'
      ? `${jsonText(selectFields(item, fields))}\n`
      : delimitedLine(
          format,
          columns.map((c) => c.value(item)),
        );
  return { line: (item) => takeHeader() + body(item), end: takeHeader };
}
