/**
 * Full records known from any answer. GET /exercise/{id} answers a full record (spec §2.1);
 * list pages carry summaries (§2.2), but an item that has the fields only a full record
 * carries is one, so it can answer `show` too.
 */
import { recordIdKey, recordNameKey } from './keys.js';

/** A list item that is a full record: it has a name and the category, primary muscles and instructions. */
export function isFullRecord(item: unknown): item is { name: string; [field: string]: unknown } {
  if (typeof item !== 'object' || item === null) return false;
  const r = item as Record<string, unknown>;
  return typeof r.name === 'string' && r.category !== undefined && Array.isArray(r.primaryMuscle) && Array.isArray(r.instructions);
}

/** The keys a record is kept under in a scope: its id (exactly), its name (case-insensitively). */
export function recordKeys(scope: string, record: unknown): string[] {
  if (typeof record !== 'object' || record === null) return [];
  const { id, name } = record as Record<string, unknown>;
  const keys: string[] = [];
  if (typeof id === 'string' && id !== '') keys.push(recordIdKey(scope, id));
  if (typeof name === 'string' && name !== '') keys.push(recordNameKey(scope, name));
  return keys;
}
