/**
 * Structural checks of exercise data. Used on records read from a catalogue directory
 * (strict: every field typed as the interface says) and on records the service returns
 * (the same rules; unknown extra fields are allowed and kept), and the nesting any answer may have.
 */
import { ENUMS, type EnumName } from './enums.js';
import type { CatalogueEntry } from './types.js';

export class ValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'ValidationError';
  }
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function checkOptionalString(o: Obj, key: string, problems: string[], where: string): void {
  if (o[key] !== undefined && typeof o[key] !== 'string') problems.push(`${where}${key} must be a string`);
}

function checkOptionalStringArray(o: Obj, key: string, problems: string[], where: string): void {
  if (o[key] !== undefined && !isStringArray(o[key])) problems.push(`${where}${key} must be an array of strings`);
}

function checkEnum(o: Obj, key: string, enumName: EnumName, opts: { nullable: boolean; array: boolean }, problems: string[], where: string): void {
  const value = o[key];
  if (value === undefined) return;
  if (value === null) {
    if (!opts.nullable) problems.push(`${where}${key} must not be null`);
    return;
  }
  const values = opts.array ? value : [value];
  if (!Array.isArray(values)) {
    problems.push(`${where}${key} must be an array of ${enumName} values`);
    return;
  }
  for (const v of values) {
    if (typeof v !== 'string' || !(ENUMS[enumName] as readonly string[]).includes(v)) {
      problems.push(`${where}${key} has ${JSON.stringify(v)}, not one of ${ENUMS[enumName].join(', ')}`);
    }
  }
}

/** Problems with a full record, or an empty list. `where` prefixes field names in messages. */
export function recordProblems(value: unknown, where = ''): string[] {
  const problems: string[] = [];
  if (!isObject(value)) return [`${where || 'record'} must be a JSON object`];
  if (typeof value.name !== 'string' || value.name.length === 0) problems.push(`${where}name is required and must be a non-empty string`);
  checkOptionalString(value, 'id', problems, where);
  checkOptionalString(value, 'displayName', problems, where);
  checkOptionalStringArray(value, 'aliases', problems, where);
  checkEnum(value, 'category', 'Category', { nullable: false, array: false }, problems, where);
  checkEnum(value, 'primaryMuscle', 'Muscle', { nullable: false, array: true }, problems, where);
  checkEnum(value, 'secondaryMuscle', 'Muscle', { nullable: false, array: true }, problems, where);
  checkEnum(value, 'force', 'Force', { nullable: true, array: false }, problems, where);
  checkEnum(value, 'level', 'Level', { nullable: true, array: false }, problems, where);
  checkEnum(value, 'mechanic', 'Mechanic', { nullable: true, array: false }, problems, where);
  checkEnum(value, 'equipment', 'Equipment', { nullable: true, array: false }, problems, where);
  checkOptionalStringArray(value, 'instructions', problems, where);
  checkOptionalStringArray(value, 'premiumImages', problems, where);
  checkOptionalStringArray(value, 'premiumVideos', problems, where);
  return problems;
}

/** A line of a catalogue directory: a full record that must also carry an id and well-formed translations. */
export function validateCatalogueEntry(value: unknown): CatalogueEntry {
  const problems = recordProblems(value);
  if (isObject(value)) {
    if (typeof value.id !== 'string' || value.id.length === 0) problems.push('id is required in a catalogue and must be a non-empty string');
    if (value.translations !== undefined) {
      if (!isObject(value.translations)) problems.push('translations must be an object keyed by language');
      else {
        for (const [lang, t] of Object.entries(value.translations)) {
          if (!isObject(t)) {
            problems.push(`translations.${lang} must be an object`);
            continue;
          }
          checkOptionalString(t, 'displayName', problems, `translations.${lang}.`);
          checkOptionalStringArray(t, 'aliases', problems, `translations.${lang}.`);
          checkOptionalStringArray(t, 'instructions', problems, `translations.${lang}.`);
        }
      }
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return value as CatalogueEntry;
}

export function summaryProblems(value: unknown, where = ''): string[] {
  if (!isObject(value)) return [`${where || 'item'} must be a JSON object`];
  const problems: string[] = [];
  if (typeof value.id !== 'string' || value.id.length === 0) problems.push(`${where}id must be a non-empty string`);
  if (typeof value.name !== 'string') problems.push(`${where}name must be a string`);
  checkOptionalString(value, 'displayName', problems, where);
  checkOptionalStringArray(value, 'aliases', problems, where);
  checkOptionalStringArray(value, 'premiumImages', problems, where);
  checkOptionalStringArray(value, 'premiumVideos', problems, where);
  return problems;
}

/** Problems with a list response (spec §2.3), or an empty list. */
export function listResponseProblems(value: unknown): string[] {
  if (!isObject(value)) return ['response must be a JSON object'];
  const problems: string[] = [];
  if (!Array.isArray(value.exercises)) problems.push('exercises must be an array');
  else value.exercises.forEach((item, i) => problems.push(...summaryProblems(item, `exercises[${i}].`)));
  if (!isObject(value.pagination)) problems.push('pagination must be an object');
  else if (typeof value.pagination.total !== 'number' || !Number.isFinite(value.pagination.total) || value.pagination.total < 0) {
    problems.push('pagination.total must be a non-negative number');
  }
  return problems;
}

/*
 * How deeply a parsed JSON value nests, found without recursion. JSON.parse takes any depth,
 * but JSON.stringify and every recursive walk overflow the stack somewhere past ~4,000
 * levels, so an answer nested that deep must be refused as malformed before anything walks it.
 */

/**
 * Deepest nesting of arrays and objects in `value` (a scalar is 0, `[]` and `{}` are 1,
 * `[[1]]` is 2), counting no further than `limit + 1`: the walk stops at the first branch
 * deeper than `limit`, so a hostile answer costs no more than the part of it read.
 */
export function maxDepth(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  // Each entry: a container and its depth. An explicit stack: no recursion, whatever the nesting.
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Deepest nesting an answer of the service may have: exercise data needs 3; unknown fields get room to spare. */
export const MAX_JSON_DEPTH = 64;
