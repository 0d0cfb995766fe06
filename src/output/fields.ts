/**
 * The fields of each kind of output, defined once (the columns of csv/tsv and the names
 * `--json <fields>` accepts), and the field selection of `--json id,name,…` (as gh's).
 */
import type { ExerciseRecord, ExerciseSummary } from '../catalogue/types.js';
import { UsageError } from '../errors.js';
import { closestWords, orList } from '../catalogue/suggest.js';

/** The named keys of an interface, without its `[extra: string]` index signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

/** Fails to compile when `List` misses a named field of `T` or names one it lacks. */
type Exactly<T, List extends readonly string[]> = [Exclude<KnownKeys<T>, List[number]>, Exclude<List[number], KnownKeys<T>>] extends [never, never]
  ? List
  : never;

/** Fields of a list item (`ids`, `query`), in the service's order. */
const SUMMARY = ['id', 'name', 'displayName', 'aliases', 'premiumImages', 'premiumVideos'] as const;
export const SUMMARY_FIELDS: Exactly<ExerciseSummary, typeof SUMMARY> = SUMMARY;

/** Fields of a full record (`show`), in the service's order. */
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

export function fieldsOf(kind: OutputKind): readonly string[] {
  return kind === 'summary' ? SUMMARY_FIELDS : RECORD_FIELDS;
}

/**
 * `id, name` → ['id', 'name'], checked against the fields of `kind`: an unknown field is a
 * usage error that lists the valid ones; so is an empty list. Duplicates are dropped.
 */
export function parseJsonFields(value: string, kind: OutputKind): string[] {
  const valid = fieldsOf(kind);
  const fields = [
    ...new Set(
      value
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== ''),
    ),
  ];
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

/**
 * The fields `--json` asked for, from the global options as commander leaves them
 * (`json: true` for a bare `--json`, the text for `--json id,name`); undefined keeps every field.
 */
export function requestedFields(globals: { json?: unknown }, kind: OutputKind): string[] | undefined {
  const raw = globals.json;
  if (typeof raw === 'string') return parseJsonFields(raw, kind);
  if (Array.isArray(raw)) return parseJsonFields(raw.join(','), kind);
  return undefined;
}

/** A copy of `item` with only `fields`, in that order; a field the item lacks stays absent. */
export function selectFields<T extends Record<string, unknown>>(item: T, fields: readonly string[] | undefined): Record<string, unknown> {
  if (fields === undefined) return item;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(item, f)) out[f] = item[f];
  return out;
}
