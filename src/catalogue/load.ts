/**
 * Loads a catalogue directory (docs/design.md, "Catalogue directory") into memory:
 * `exercises.jsonl` is read line by line and every line validated, so a bad line fails
 * start-up with the file and line number instead of serving half a catalogue. (A run answered
 * in-process may read a single record through server/record-index.ts instead.)
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOGUE_FILE } from './catalogue-dir.js';
import { validateCatalogueEntry, ValidationError } from './validate.js';
import type { CatalogueEntry } from './types.js';
import { UsageError } from '../errors.js';
import { CATALOGUE_FILE_MAX_BYTES } from '../defaults.js';
import { RefusedFileError, readRegularFileSync } from '../util/safe-open.js';

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

/** Where a record's line lies in exercises.jsonl: its byte offset and length (without the line break). */
export type LineSpan = readonly [offset: number, length: number];

/** The absolute directory and its exercises.jsonl, checked to exist; else CatalogueError. */
export function catalogueFile(dir: string): { root: string; file: string } {
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
  return { root, file };
}

/**
 * One line of exercises.jsonl as it is read (`raw`: a first line may start with a BOM, any
 * line may end in \r), parsed and checked: the entry, undefined for a blank line, or
 * CatalogueError naming `where` (file:line).
 */
export function parseCatalogueLine(raw: string, first: boolean, where: string): CatalogueEntry | undefined {
  const unended = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const line = first ? unended.replace(/^\uFEFF/, '') : unended;
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new CatalogueError(`${where}: not valid JSON (${(err as Error).message}).`);
  }
  try {
    return validateCatalogueEntry(value);
  } catch (err) {
    if (err instanceof ValidationError) throw new CatalogueError(`${where}: ${err.message}.`);
    throw err;
  }
}

/** exercises.jsonl as text, by the one rule for opening files: a FIFO, a device or a file over the bound is a CatalogueError naming it. */
function readCatalogueText(file: string): string {
  try {
    return readRegularFileSync(file, { maxBytes: CATALOGUE_FILE_MAX_BYTES }).toString('utf8');
  } catch (err) {
    if (err instanceof RefusedFileError) throw new CatalogueError(`The catalogue cannot be read: ${err.message}.`);
    throw err;
  }
}

/**
 * The whole catalogue, every line checked, read synchronously and whole: a few MB at most, read
 * once before the first answer, then split into lines. With `spans`, each id's line is
 * recorded there too (server/record-index.ts).
 */
export function readCatalogue(dir: string, spans?: Map<string, LineSpan>): Catalogue {
  const { root, file } = catalogueFile(dir);
  const entries: CatalogueEntry[] = [];
  const lineOfId = new Map<string, number>();
  const lines = readCatalogueText(file).split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    const at = offset;
    if (spans) offset += Buffer.byteLength(raw) + 1;
    const entry = parseCatalogueLine(raw, lineNo === 1, `${file}:${lineNo}`);
    if (entry === undefined) continue;
    const earlier = lineOfId.get(entry.id);
    if (earlier !== undefined) throw new CatalogueError(`${file}:${lineNo}: id "${entry.id}" already used on line ${earlier}.`);
    lineOfId.set(entry.id, lineNo);
    spans?.set(entry.id, [at, Buffer.byteLength(raw)]);
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
