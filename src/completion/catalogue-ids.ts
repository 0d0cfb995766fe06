/**
 * Ids, names and media names from a catalogue directory's exercises.jsonl, fast enough for
 * a TAB. A mirrored catalogue runs to megabytes (instructions, translations): reading its
 * ids and names costs more than a TAB may take, so they are read once per version of the
 * file into an id index of their own (id-index.ts format) in the cache directory, and
 * searched there. Media names are found by searching the file for the record's id and
 * parsing that one line.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOGUE_FILE } from '../server/catalogue.js';
import type { ExerciseEntry } from './engine.js';
import { idIndexPath, readIdIndexMatching, writeIdIndex } from './id-index.js';
import { lineAt, linesWith, readBytes } from './line-scan.js';

/** The first `"id"` and `"name"` of a line are the record's own (a key's quotes cannot occur unescaped inside a string). */
const ID = /"id"\s*:\s*"((?:[^"\\]|\\.)*)"/;
const NAME = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/** Where completion keeps the id indexes of catalogue directories, in the user cache directory. */
const INDEXES_DIR = 'completion-catalogues';

function jsonString(body: string): string {
  return body.includes('\\') ? (JSON.parse(`"${body}"`) as string) : body;
}

function entryOf(line: string): ExerciseEntry | undefined {
  const id = ID.exec(line)?.[1];
  if (id === undefined) return undefined;
  const name = NAME.exec(line)?.[1];
  return name === undefined ? { id: jsonString(id) } : { id: jsonString(id), name: jsonString(name) };
}

/** Every exercise of the catalogue, in file order; none when it cannot be read. */
export function readCatalogueEntries(dir: string): ExerciseEntry[] {
  const bytes = readBytes(join(dir, CATALOGUE_FILE));
  if (bytes === undefined) return [];
  const out: ExerciseEntry[] = [];
  for (const line of Buffer.from(bytes, 'latin1').toString('utf8').split('\n')) {
    const entry = entryOf(line);
    if (entry) out.push(entry);
  }
  return out;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A short stable hash (FNV-1a, 32 bits) for naming files; node:crypto costs a TAB too much to load. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * The folder of the id index of catalogue `dir` as its exercises.jsonl is now (named after
 * the directory, the file's size and time), written first if missing; undefined when the
 * catalogue cannot be read or the index cannot be written.
 */
function catalogueIndexDir(dir: string, cacheDir: string): string | undefined {
  const file = join(dir, CATALOGUE_FILE);
  let version: string;
  try {
    const stat = statSync(file);
    version = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
  const root = join(cacheDir, INDEXES_DIR);
  const owner = `${hash(resolve(dir))}-`;
  const indexDir = join(root, `${owner}${hash(version)}`);
  if (isFile(idIndexPath(indexDir))) return indexDir; // written whole and renamed into place: complete
  try {
    // Indexes of earlier versions of this catalogue are of no more use.
    for (const old of readdirSync(root)) if (old.startsWith(owner)) rmSync(join(root, old), { recursive: true, force: true });
  } catch {
    // no indexes yet
  }
  try {
    writeIdIndex(indexDir, readCatalogueEntries(dir), { maxLines: Number.MAX_SAFE_INTEGER });
    return indexDir;
  } catch {
    return undefined;
  }
}

/** At least the exercises whose id starts with `prefix` or whose name does in any case (all for ''). */
export function catalogueEntriesMatching(dir: string, prefix: string, cacheDir: string): ExerciseEntry[] {
  const indexDir = catalogueIndexDir(dir, cacheDir);
  // Without a writable cache, the catalogue itself is read on every TAB: slower, still right.
  return indexDir === undefined ? readCatalogueEntries(dir) : readIdIndexMatching(indexDir, prefix);
}

/** The record of one exercise, by id or by exact name in any case, as one line of the catalogue. */
function recordLine(dir: string, idOrName: string, cacheDir: string): string | undefined {
  const bytes = readBytes(join(dir, CATALOGUE_FILE));
  if (bytes === undefined) return undefined;
  const lowerName = idOrName.toLowerCase();
  const named = catalogueEntriesMatching(dir, idOrName, cacheDir).find((e) => e.id !== idOrName && e.name?.toLowerCase() === lowerName);
  const id = named?.id ?? idOrName;
  for (const { start } of linesWith(bytes, '"id":', JSON.stringify(id), { ignoreCase: false, first: true })) {
    const line = lineAt(bytes, start);
    if (entryOf(line)?.id === id) return line;
  }
  if (bytes.includes('"id":"')) return undefined;
  // A file written with spaces after the colons: looked through line by line.
  return Buffer.from(bytes, 'latin1')
    .toString('utf8')
    .split('\n')
    .find((line) => entryOf(line)?.id === id);
}

/** The premium image or video names of one exercise, by id or by name in any case. */
export function catalogueMediaNames(dir: string, idOrName: string, kind: 'image' | 'video', cacheDir: string): string[] {
  const line = recordLine(dir, idOrName, cacheDir);
  if (line === undefined) return [];
  try {
    const names: unknown = (JSON.parse(line) as Record<string, unknown>)[kind === 'image' ? 'premiumImages' : 'premiumVideos'];
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}
