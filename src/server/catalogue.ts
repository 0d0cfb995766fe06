/**
 * Loads a catalogue directory (docs/design.md, "Catalogue directory") into memory:
 * `exercises.jsonl` is read line by line and every line validated, so a bad line fails
 * start-up with the file and line number instead of serving half a catalogue.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateCatalogueEntry, ValidationError } from '../catalogue/validate.js';
import type { CatalogueEntry } from '../catalogue/types.js';
import { UsageError } from '../errors.js';

export const CATALOGUE_FILE = 'exercises.jsonl';

/** A catalogue directory that cannot be served; the message names the file and line. */
export class CatalogueError extends UsageError {}

export interface Catalogue {
  /** Absolute path of the catalogue directory. */
  dir: string;
  /** Every entry in the listing order: name case-insensitively, then id. */
  entries: readonly CatalogueEntry[];
  /** Position of each id in `entries` (cursors and bare ids resolve through it). */
  indexById: ReadonlyMap<string, number>;
  /** Entries by lower-cased name, for /exercise/{name}. */
  byLowerName: ReadonlyMap<string, CatalogueEntry>;
  /** Every language some entry is translated into (its `translations` keys), for a list's Content-Language. */
  languages: readonly string[];
}

/** The listing order of docs/design.md: name case-insensitively, then id; stable whatever the file order. */
export function compareEntries(a: CatalogueEntry, b: CatalogueEntry): number {
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  if (an !== bn) return an < bn ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export async function loadCatalogue(dir: string): Promise<Catalogue> {
  const root = resolve(dir);
  const file = join(root, CATALOGUE_FILE);
  try {
    if (!statSync(root).isDirectory()) throw new CatalogueError(`${root} is not a directory.`);
    statSync(file);
  } catch (err) {
    if (err instanceof CatalogueError) throw err;
    throw new CatalogueError(`No catalogue at ${root}: ${file} cannot be read.`, {
      hint: 'A catalogue directory holds exercises.jsonl (one record per line) and optional images/ and videos/ folders.',
    });
  }

  const entries: CatalogueEntry[] = [];
  const lineOfId = new Map<string, number>();
  // Read whole and split: a catalogue is a few MB at most, and readline's stream costs more
  // than the file itself (a `--catalogue … show` reads it on every run). Read synchronously:
  // it is read once, before the first answer (at `serve`'s start, on an in-process run's first
  // request), and node:fs/promises would cost every `--catalogue` run ~4 ms to load.
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const line = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') continue;
    const where = `${file}:${lineNo}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new CatalogueError(`${where}: not valid JSON (${(err as Error).message}).`);
    }
    let entry: CatalogueEntry;
    try {
      entry = validateCatalogueEntry(value);
    } catch (err) {
      if (err instanceof ValidationError) throw new CatalogueError(`${where}: ${err.message}.`);
      throw err;
    }
    const earlier = lineOfId.get(entry.id);
    if (earlier !== undefined) throw new CatalogueError(`${where}: id "${entry.id}" already used on line ${earlier}.`);
    lineOfId.set(entry.id, lineNo);
    entries.push(entry);
  }

  entries.sort(compareEntries);
  const indexById = new Map<string, number>();
  const byLowerName = new Map<string, CatalogueEntry>();
  const languages = new Set<string>();
  entries.forEach((e, i) => {
    for (const tag of Object.keys(e.translations ?? {})) languages.add(tag);
    indexById.set(e.id, i);
    const key = e.name.toLowerCase();
    if (!byLowerName.has(key)) byLowerName.set(key, e);
  });
  return { dir: root, entries, indexById, byLowerName, languages: [...languages] };
}
