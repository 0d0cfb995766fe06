/** Structural checks of exercise data: catalogue records strictly, the service's the same way (extra fields kept), and any answer's nesting. */
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

/** How each optional field is typed. */
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

/** Problems with the present `keys` of `o`; `where` prefixes field names. */
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

/** Problems with a full record, or none. */
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

/** Problems with a list response, or none. */
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

/**
 * Deepest nesting of arrays and objects in `value` (`[[1]]` is 2), found without recursion, counting no
 * further than `limit + 1`: a recursive walk would overflow the stack, so deeper answers are refused
 * before anything walks them, at the cost of the part read.
 */
export function maxDepth(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  // An explicit stack of containers and their depths.
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

/** Deepest nesting an answer may have: exercise data needs 3. */
export const MAX_JSON_DEPTH = 64;
