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

/** How each optional field is typed: a string, an array of strings, or an enum's value (in an array, or alone and maybe null). */
type Rule = 'string' | 'strings' | { enum: EnumName; array?: true; nullable?: true };

/** The optional fields of a record, in the order their problems are listed. */
const RULES = {
  id: 'string',
  displayName: 'string',
  aliases: 'strings',
  category: { enum: 'Category' },
  primaryMuscle: { enum: 'Muscle', array: true },
  secondaryMuscle: { enum: 'Muscle', array: true },
  force: { enum: 'Force', nullable: true },
  level: { enum: 'Level', nullable: true },
  mechanic: { enum: 'Mechanic', nullable: true },
  equipment: { enum: 'Equipment', nullable: true },
  instructions: 'strings',
  premiumImages: 'strings',
  premiumVideos: 'strings',
} as const satisfies Record<string, Rule>;

/** Problems with the `keys` of `o` that are present, by RULES; `where` prefixes field names in messages. */
function fieldProblems(o: Obj, keys: readonly (keyof typeof RULES)[], where: string): string[] {
  const problems: string[] = [];
  for (const key of keys) {
    const value = o[key];
    const rule: Rule = RULES[key];
    if (value === undefined) continue;
    if (rule === 'string') {
      if (typeof value !== 'string') problems.push(`${where}${key} must be a string`);
    } else if (rule === 'strings') {
      if (!isStringArray(value)) problems.push(`${where}${key} must be an array of strings`);
    } else if (value === null) {
      if (!rule.nullable) problems.push(`${where}${key} must not be null`);
    } else if (rule.array && !Array.isArray(value)) {
      problems.push(`${where}${key} must be an array of ${rule.enum} values`);
    } else {
      const valid: readonly string[] = ENUMS[rule.enum];
      for (const v of rule.array ? (value as unknown[]) : [value]) {
        if (typeof v !== 'string' || !valid.includes(v)) problems.push(`${where}${key} has ${JSON.stringify(v)}, not one of ${valid.join(', ')}`);
      }
    }
  }
  return problems;
}

/** Problems with a full record, or an empty list. `where` prefixes field names in messages. */
export function recordProblems(value: unknown, where = ''): string[] {
  if (!isObject(value)) return [`${where || 'record'} must be a JSON object`];
  const name = typeof value.name !== 'string' || value.name.length === 0 ? [`${where}name is required and must be a non-empty string`] : [];
  return [...name, ...fieldProblems(value, Object.keys(RULES) as (keyof typeof RULES)[], where)];
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
          if (!isObject(t)) problems.push(`translations.${lang} must be an object`);
          else problems.push(...fieldProblems(t, ['displayName', 'aliases', 'instructions'], `translations.${lang}.`));
        }
      }
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return value as CatalogueEntry;
}

function summaryProblems(value: unknown, where = ''): string[] {
  if (!isObject(value)) return [`${where || 'item'} must be a JSON object`];
  const problems: string[] = [];
  if (typeof value.id !== 'string' || value.id.length === 0) problems.push(`${where}id must be a non-empty string`);
  if (typeof value.name !== 'string') problems.push(`${where}name must be a string`);
  return [...problems, ...fieldProblems(value, ['displayName', 'aliases', 'premiumImages', 'premiumVideos'], where)];
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
 * but a recursive walk overflows the stack at a depth that depends on the engine and the
 * stack size, so an answer nested deeper than MAX_JSON_DEPTH is refused as malformed before
 * anything walks it.
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
