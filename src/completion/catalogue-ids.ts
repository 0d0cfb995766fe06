/**
 * Ids, names and media names from a catalogue directory's exercises.jsonl for a TAB: a mirrored
 * catalogue runs to megabytes, so it is read once per version into two small indexes in the cache
 * directory (ids, and media: `id<TAB>image|video<TAB>name<TAB>…`), which are searched instead.
 */
import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOGUE_FILE } from '../catalogue/catalogue-dir.js';
import { appendIdIndex, writeFileAtomic, idIndexPath, readIdIndexMatching } from './id-index.js';
import type { ExerciseEntry } from './engine.js';
import { asBytes, lineAt, readBytes } from './line-scan.js';
import { CATALOGUE_FILE_MAX_BYTES } from '../defaults.js';
import { readRegularFileSync } from '../util/safe-open.js';

type MediaKind = 'image' | 'video';

interface CatalogueRecord extends ExerciseEntry {
  media: Record<MediaKind, string[]>;
}

const INDEXES_DIR = 'completion-catalogues';
const MEDIA_FILE = 'completion-media.tsv';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v !== '' && !/[\t\r\n]/.test(v)) : [];
}

/** Every record that has an id, in file order; none when unreadable. */
function readCatalogueRecords(dir: string): CatalogueRecord[] {
  let text: string;
  try {
    text = readRegularFileSync(join(dir, CATALOGUE_FILE), { maxBytes: CATALOGUE_FILE_MAX_BYTES }).toString('utf8');
  } catch {
    return [];
  }
  const out: CatalogueRecord[] = [];
  for (const line of text.split('\n')) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue; // a blank or broken line: the server says which when it loads the catalogue
    }
    if (typeof record?.id !== 'string') continue;
    out.push({
      id: record.id,
      ...(typeof record.name === 'string' ? { name: record.name } : {}),
      media: { image: strings(record.premiumImages), video: strings(record.premiumVideos) },
    });
  }
  return out;
}

function hashName(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The index folder of catalogue `dir` as its file is now (named by directory, size and time), written first if missing; undefined on failure. */
function catalogueIndexDir(dir: string, cacheDir: string): string | undefined {
  let version: string;
  try {
    const stat = statSync(join(dir, CATALOGUE_FILE));
    version = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
  const root = join(cacheDir, INDEXES_DIR);
  const owner = `${hashName(resolve(dir))}-`;
  const indexDir = join(root, `${owner}${hashName(version)}`);
  if (isFile(idIndexPath(indexDir))) return indexDir; // written last, so both are complete
  try {
    for (const old of readdirSync(root)) if (old.startsWith(owner)) rmSync(join(root, old), { recursive: true, force: true });
  } catch {
    // no indexes yet
  }
  try {
    const records = readCatalogueRecords(dir);
    const media = records.flatMap((r) => (['image', 'video'] as const).filter((k) => r.media[k].length > 0).map((k) => [r.id, k, ...r.media[k]].join('\t')));
    writeFileAtomic(join(indexDir, MEDIA_FILE), media.map((line) => `${line}\n`).join(''));
    appendIdIndex(indexDir, records, { maxLines: Number.MAX_SAFE_INTEGER, replace: true });
    return indexDir;
  } catch {
    return undefined;
  }
}

/** The first `limit` exercises whose id or name (any case) starts with `prefix`, or more for the caller to filter. */
export function catalogueEntriesMatching(dir: string, prefix: string, cacheDir: string, limit = Infinity): ExerciseEntry[] {
  const indexDir = catalogueIndexDir(dir, cacheDir);
  // Without a writable cache, the catalogue itself is read on every TAB: slower, still right.
  if (indexDir !== undefined) return readIdIndexMatching(indexDir, prefix, limit);
  return readCatalogueRecords(dir).map(({ id, name }) => (name === undefined ? { id } : { id, name }));
}

/** The media names of `id` in a media index; undefined when none of that kind. */
function indexedMedia(indexDir: string, id: string, kind: MediaKind): string[] | undefined {
  const bytes = readBytes(join(indexDir, MEDIA_FILE));
  if (bytes === undefined) return undefined;
  const key = `${asBytes(id)}\t${kind}\t`;
  let start = 0;
  if (!bytes.startsWith(key)) {
    const lineBreak = bytes.indexOf(`\n${key}`);
    if (lineBreak < 0) return undefined;
    start = lineBreak + 1;
  }
  return lineAt(bytes, start).split('\t').slice(2);
}

/** The premium image or video names of one exercise, by id or by name in any case. */
export function catalogueMediaNames(dir: string, idOrName: string, kind: MediaKind, cacheDir: string): string[] {
  const indexDir = catalogueIndexDir(dir, cacheDir);
  const lowerName = idOrName.toLowerCase();
  if (indexDir === undefined) {
    const records = readCatalogueRecords(dir);
    const record = records.find((r) => r.id === idOrName) ?? records.find((r) => r.name?.toLowerCase() === lowerName);
    return record?.media[kind] ?? [];
  }
  const byId = indexedMedia(indexDir, idOrName, kind);
  if (byId) return byId;
  const named = readIdIndexMatching(indexDir, idOrName, 50).find((e) => e.name?.toLowerCase() === lowerName);
  return (named && indexedMedia(indexDir, named.id, kind)) ?? [];
}
