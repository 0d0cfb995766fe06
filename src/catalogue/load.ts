/**
 * Loads a catalogue directory (docs/design.md, "Catalogue directory"): `exercises.jsonl` is read
 * a chunk at a time and every line validated, so a bad line fails start-up with the file and line
 * number instead of serving half a catalogue. What listings need stays in memory; a whole record
 * is read back from its line when asked for, so 150,000 records fit in a few hundred MB.
 */
import { closeSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOGUE_FILE } from './catalogue-dir.js';
import { validateCatalogueEntry, ValidationError } from './validate.js';
import type { CatalogueEntry, Translation } from './types.js';
import type { EnumFilterParam } from './enums.js';
import { UsageError } from '../errors.js';
import { CATALOGUE_FILE_MAX_BYTES } from '../defaults.js';
import { RefusedFileError, openRegularFileSync } from '../util/safe-open.js';

/** A catalogue directory that cannot be served; the message names the file and line. */
export class CatalogueError extends UsageError {}

/** What listings and their filters read of an entry: no instructions, no unknown fields. */
export type ListedEntry = Pick<CatalogueEntry, 'id' | 'name' | 'displayName' | 'aliases' | 'premiumImages' | 'premiumVideos' | EnumFilterParam> & {
  translations?: Record<string, Omit<Translation, 'instructions'>>;
};

export interface Catalogue {
  /** Absolute path of the catalogue directory. */
  dir: string;
  /** Every entry in the listing order: name case-insensitively, then id. */
  entries: readonly ListedEntry[];
  /** Position of each id in `entries` (cursors and bare ids resolve through it). */
  indexById: ReadonlyMap<string, number>;
  /** Entries by lower-cased name, for /exercise/{name}. */
  byLowerName: ReadonlyMap<string, ListedEntry>;
  /** Every language some entry is translated into (its `translations` keys), for a list's Content-Language. */
  languages: readonly string[];
  /** Where each id's line lies in exercises.jsonl. */
  lines: ReadonlyMap<string, LineSpan>;
  /** The whole record of an entry, read back from its line; CatalogueError when the file changed since. */
  record(entry: ListedEntry): CatalogueEntry;
}

/** The listing order of docs/design.md: name case-insensitively, then id; stable whatever the file order. */
export function compareEntries(a: ListedEntry, b: ListedEntry): number {
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

/** Bytes read at a time: the file is never held whole, nor as one string. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Each line of exercises.jsonl as bytes, with its byte offset, read a chunk at a time by the one
 * rule for opening files: a FIFO, a device or a file over the bound is a CatalogueError naming it.
 */
function* catalogueLines(file: string): Generator<[line: Buffer, offset: number]> {
  let fd: number;
  try {
    ({ fd } = openRegularFileSync(file, { maxBytes: CATALOGUE_FILE_MAX_BYTES }));
  } catch (err) {
    if (err instanceof RefusedFileError) throw new CatalogueError(`The catalogue cannot be read: ${err.message}.`);
    throw err;
  }
  try {
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let rest = Buffer.alloc(0);
    let offset = 0;
    for (let n: number; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
      const bytes = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      if (offset + bytes.length > CATALOGUE_FILE_MAX_BYTES)
        throw new CatalogueError(`The catalogue cannot be read: ${file} grew past the ${CATALOGUE_FILE_MAX_BYTES}-byte bound for it.`);
      let start = 0;
      for (let end: number; (end = bytes.indexOf(10, start)) !== -1; start = end + 1) yield [bytes.subarray(start, end), offset + start];
      offset += start;
      rest = Buffer.from(bytes.subarray(start));
    }
    yield [rest, offset];
  } finally {
    closeSync(fd);
  }
}

/** The listed part of an entry (ListedEntry): the fields a listing or a filter reads, as one object literal (a compact shape). */
function listedPart(entry: CatalogueEntry): ListedEntry {
  const { id, name, displayName, aliases, premiumImages, premiumVideos, category, primaryMuscle, secondaryMuscle, force, level, mechanic, equipment } = entry;
  const listed: ListedEntry = {
    id,
    name,
    displayName,
    aliases,
    premiumImages,
    premiumVideos,
    category,
    primaryMuscle,
    secondaryMuscle,
    force,
    level,
    mechanic,
    equipment,
  };
  if (entry.translations) {
    listed.translations = Object.fromEntries(Object.entries(entry.translations).map(([tag, t]) => [tag, { displayName: t.displayName, aliases: t.aliases }]));
  }
  return listed;
}

/** The record on its line of `file`, when that line still reads as the record with this id; else undefined. */
export function readRecordLine(file: string, [offset, length]: LineSpan, id: string): CatalogueEntry | undefined {
  let fd: number | undefined;
  try {
    fd = openRegularFileSync(file, { maxBytes: CATALOGUE_FILE_MAX_BYTES }).fd;
    const bytes = Buffer.alloc(length);
    if (readSync(fd, bytes, 0, length, offset) !== length) return undefined;
    const entry = parseCatalogueLine(bytes.toString('utf8'), offset === 0, file);
    return entry?.id === id ? entry : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The whole catalogue, every line checked, read synchronously once before the first answer; with
 * `whole`, each entry is kept whole (the picker previews instructions), else its listed part.
 */
export function readCatalogue(dir: string, options: { whole?: boolean } = {}): Catalogue {
  const { root, file } = catalogueFile(dir);
  const entries: ListedEntry[] = [];
  const lines = new Map<string, LineSpan>();
  const lineOfId = new Map<string, number>();
  let lineNo = 0;
  for (const [bytes, at] of catalogueLines(file)) {
    lineNo++;
    const entry = parseCatalogueLine(bytes.toString('utf8'), lineNo === 1, `${file}:${lineNo}`);
    if (entry === undefined) continue;
    const earlier = lineOfId.get(entry.id);
    if (earlier !== undefined) throw new CatalogueError(`${file}:${lineNo}: id "${entry.id}" already used on line ${earlier}.`);
    lineOfId.set(entry.id, lineNo);
    lines.set(entry.id, [at, bytes.length]);
    entries.push(options.whole ? entry : listedPart(entry));
  }

  entries.sort(compareEntries);
  const indexById = new Map<string, number>();
  const byLowerName = new Map<string, ListedEntry>();
  const languages = new Set<string>();
  entries.forEach((e, i) => {
    for (const tag of Object.keys(e.translations ?? {})) languages.add(tag);
    indexById.set(e.id, i);
    const key = e.name.toLowerCase();
    if (!byLowerName.has(key)) byLowerName.set(key, e);
  });
  const record = (entry: ListedEntry): CatalogueEntry => {
    const read = readRecordLine(file, lines.get(entry.id)!, entry.id);
    if (!read) throw new CatalogueError(`${file} changed after it was loaded: the record "${entry.id}" is no longer on its line; start again to load it anew.`);
    return read;
  };
  return { dir: root, entries, indexById, byLowerName, languages: [...languages], lines, record };
}
