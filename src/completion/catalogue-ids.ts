/**
 * Ids, names and media names from a catalogue directory's exercises.jsonl, read fast enough
 * for a TAB: a mirrored catalogue runs to megabytes (instructions, translations), and
 * parsing every record would cost more than the whole completion may take. The id and name
 * are picked out of each line instead; `"id":"` cannot occur inside a JSON string (its
 * quotes would be escaped), so the first match is the record's own key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_FILE } from '../server/catalogue.js';
import type { ExerciseEntry } from './engine.js';

const ID = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const NAME = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/;

function jsonString(body: string): string {
  return body.includes('\\') ? (JSON.parse(`"${body}"`) as string) : body;
}

function catalogueLines(dir: string): string[] {
  try {
    return readFileSync(join(dir, CATALOGUE_FILE), 'utf8').split('\n');
  } catch {
    return [];
  }
}

function entryOf(line: string): ExerciseEntry | undefined {
  const id = ID.exec(line)?.[1];
  if (id === undefined) return undefined;
  const name = NAME.exec(line)?.[1];
  return name === undefined ? { id: jsonString(id) } : { id: jsonString(id), name: jsonString(name) };
}

/** Every exercise of the catalogue, in file order; none when it cannot be read. */
export function readCatalogueEntries(dir: string): ExerciseEntry[] {
  const out: ExerciseEntry[] = [];
  for (const line of catalogueLines(dir)) {
    const entry = entryOf(line);
    if (entry) out.push(entry);
  }
  return out;
}

/** The premium image or video names of one exercise, by id or by name in any case. */
export function catalogueMediaNames(dir: string, idOrName: string, kind: 'image' | 'video'): string[] {
  const lowerName = idOrName.toLowerCase();
  for (const line of catalogueLines(dir)) {
    const entry = entryOf(line);
    if (!entry || (entry.id !== idOrName && entry.name?.toLowerCase() !== lowerName)) continue;
    try {
      const names: unknown = (JSON.parse(line) as Record<string, unknown>)[kind === 'image' ? 'premiumImages' : 'premiumVideos'];
      return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
    } catch {
      return [];
    }
  }
  return [];
}
