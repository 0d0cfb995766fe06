/**
 * Where each record of a catalogue's exercises.jsonl lies, so that a run answered in-process
 * reads a single record (`show`, a media request) from its own line instead of parsing and
 * checking every record of the catalogue.
 *
 * One file per catalogue in the user cache directory (`catalogue-records/`), for one version of
 * exercises.jsonl (size, times, inode), written only after a whole load found every line valid:
 * a record read through it is the one a whole load gives, and any change to the file leaves it
 * unused. A line that no longer reads back as its record, or any trouble with the index, means
 * "cannot tell": the caller loads the whole catalogue, which says what is wrong.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CatalogueEntry } from '../catalogue/types.js';
import { replaceFileSync } from '../util/write-all.js';
import { LOCAL_INDEX_MAX_BYTES } from '../defaults.js';
import { readRegularFileSync } from '../util/safe-open.js';
import { CATALOGUE_FILE } from '../catalogue/catalogue-dir.js';
import { type Catalogue, type LineSpan, catalogueFile, readRecordLine } from '../catalogue/load.js';

/** Bumped when the file's shape changes: an index of another version is not used. */
const FORMAT = 1;

interface IndexFile {
  format: number;
  file: string;
  version: string;
  /** [id, byte offset, byte length] of every record's line. */
  lines: [string, number, number][];
  /** [lower-cased name, id]: the record /exercise/{name} answers with (the first in listing order). */
  names: [string, string][];
}

/** Answers for one record, without the whole catalogue. */
export interface RecordIndex {
  /** The catalogue directory (absolute). */
  dir: string;
  /** The record with this id, else with this name in any case; null when there is none; undefined when it cannot tell. */
  entry(idOrName: string): CatalogueEntry | null | undefined;
  /** Whether a record has this id. */
  hasId(id: string): boolean;
}

/** What names the version of exercises.jsonl: any write or replacement changes it. */
function versionOf(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/** The index of `file` (one per catalogue, whatever its version) in `indexDir`, named after a hash of the file's path. */
export function recordIndexPath(indexDir: string, file: string): string {
  return join(indexDir, `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.json`);
}

/** The index of the catalogue in `dir`, when there is one for exercises.jsonl as it is now. */
export function openRecordIndex(indexDir: string, dir: string): RecordIndex | undefined {
  let file: string;
  let root: string;
  let index: IndexFile;
  try {
    ({ root, file } = catalogueFile(dir));
    // A FIFO or a device planted as the index is refused (util/safe-open.ts): the catalogue is then read whole.
    index = JSON.parse(readRegularFileSync(recordIndexPath(indexDir, file), { maxBytes: LOCAL_INDEX_MAX_BYTES }).toString('utf8')) as IndexFile;
  } catch {
    return undefined;
  }
  if (index.format !== FORMAT || index.file !== file || index.version !== versionOf(file)) return undefined;
  if (!Array.isArray(index.lines) || !Array.isArray(index.names)) return undefined;
  const lines = new Map(index.lines.map(([id, offset, length]): [string, LineSpan] => [id, [offset, length]]));
  const names = new Map(index.names);

  /** The record on its own line; undefined when that line cannot all be read, or is not the record. */
  const byId = (id: string): CatalogueEntry | undefined => {
    const span = lines.get(id);
    return span && readRecordLine(file, span, id);
  };
  return {
    dir: root,
    entry(idOrName) {
      if (lines.has(idOrName)) return byId(idOrName);
      const id = names.get(idOrName.toLowerCase());
      return id === undefined ? null : byId(id);
    },
    hasId: (id) => lines.has(id),
  };
}

/** Writes the index of a catalogue just loaded whole, when exercises.jsonl is still the `version` read; best effort. */
export function writeRecordIndex(indexDir: string, catalogue: Catalogue, version: string | undefined): void {
  try {
    const { file } = catalogueFile(catalogue.dir);
    if (version === undefined || versionOf(file) !== version) return;
    const index: IndexFile = {
      format: FORMAT,
      file,
      version,
      lines: [...catalogue.lines].map(([id, [offset, length]]) => [id, offset, length]),
      names: [...catalogue.byLowerName].map(([name, entry]) => [name, entry.id]),
    };
    mkdirSync(indexDir, { recursive: true, mode: 0o700 });
    replaceFileSync(recordIndexPath(indexDir, file), [JSON.stringify(index)], 0o600);
  } catch {
    // no index: the catalogue is read whole next time too
  }
}

/** The version to pass to writeRecordIndex: read before the catalogue is (undefined when there is no catalogue to read). */
export function catalogueVersion(dir: string): string | undefined {
  return versionOf(join(resolve(dir), CATALOGUE_FILE));
}
