/**
 * The id index: exercise ids and names seen in answers of the service, kept by the cache
 * layer as `completion-ids.tsv` in its directory (cacheRoot, cache/store-files.ts) so that TAB can
 * offer them without a request and without reading the cache's entries. Completion also
 * keeps one per catalogue directory (catalogue-ids.ts).
 *
 * The contract: a UTF-8 text file, one exercise per line, `id<TAB>name` (or just `id` when
 * the name is unknown), oldest first. Ids and names never contain a tab or a line break
 * (ids that would are left out; such characters in names become spaces). At most
 * ID_INDEX_MAX_LINES lines and ID_INDEX_MAX_BYTES bytes: the oldest go first. Ids and names
 * that are not printable or longer than 256 characters (isCompletable) are never written, and
 * never read back from a file written otherwise. Rewritten whole and renamed into place
 * (writeFileAtomic), so a reader never sees half a file; two writers at once may lose one's
 * additions, which only means those ids are offered after their next answer. Written only when
 * an answer taught it something new.
 */
import { LOCAL_INDEX_MAX_BYTES } from '../defaults.js';
import { readRegularFileSync } from '../util/safe-open.js';
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { firstLines, isAscii, lineAt, linesWith, mergeLines, readBytes } from './line-scan.js';

/*
 * What completion may offer: printable text of a sane length. An id or name from the service
 * (or a catalogue) may hold escape sequences; zsh prints candidates and descriptions raw, so
 * `ESC]0;title BEL` retitled the window and `ESC[2J` cleared the screen on a TAB. Such entries
 * are kept out of completion (they can still be typed, or given through `-`), as are entries
 * over COMPLETION_MAX_CHARS characters, which only slow every TAB down.
 */

/** Longest id or name offered by completion. */
export const COMPLETION_MAX_CHARS = 256;

/** C0 controls, DEL, C1 controls, and the bidi marks, embeddings, overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Whether `text` may be offered on a command line: printable, at most COMPLETION_MAX_CHARS characters. */
export function isCompletable(text: string): boolean {
  return text.length <= COMPLETION_MAX_CHARS && !UNPRINTABLE.test(text);
}

/**
 * Replaces a small file so that no reader ever sees half of it: written aside, then renamed
 * into place. Private whatever the umask (directories 0700, the file 0600): the completion
 * indexes list what the user looked at.
 */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
    renameSync(partial, file);
  } catch (err) {
    try {
      unlinkSync(partial);
    } catch {
      // never written
    }
    throw err;
  }
}

export const ID_INDEX_FILE = 'completion-ids.tsv';
/** Lines kept at most: a few times the service's whole catalogue, and few enough for a TAB to search at once. */
export const ID_INDEX_MAX_LINES = 5_000;
/** Bytes kept at most, whatever the lines hold: the oldest lines go first past it. */
export const ID_INDEX_MAX_BYTES = 1024 * 1024;

export interface IdIndexEntry {
  id: string;
  name?: string;
}

/** The index file in a cache directory (the one holding the cache's own files). */
export function idIndexPath(cacheDir: string): string {
  return join(cacheDir, ID_INDEX_FILE);
}

/** An id and name as they may be offered (and written), or undefined: an id with controls, or too long, keeps the whole entry out. */
function completable(id: string, name: string): IdIndexEntry | undefined {
  if (id === '' || !isCompletable(id) || !isCompletable(name)) return undefined;
  return name === '' ? { id } : { id, name };
}

/** The entries of the index's lines. */
function entriesOf(lines: readonly string[]): IdIndexEntry[] {
  return lines.flatMap((raw) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const tab = line.indexOf('\t');
    return completable(tab < 0 ? line : line.slice(0, tab), tab < 0 ? '' : line.slice(tab + 1)) ?? [];
  });
}

/** Every entry of the index, oldest first; none when the file is missing or unreadable. */
export function readIdIndex(cacheDir: string): IdIndexEntry[] {
  try {
    return entriesOf(readRegularFileSync(idIndexPath(cacheDir), { maxBytes: LOCAL_INDEX_MAX_BYTES }).toString('utf8').split('\n'));
  } catch {
    return [];
  }
}

/**
 * The first `limit` entries (oldest first) whose id starts with `prefix` or whose name does
 * in any case (any entry for ''); with a prefix beyond ASCII, every entry (to be filtered
 * by the caller). Found by searching the file, not by reading every line, so a TAB stays
 * fast with a full index.
 */
export function readIdIndexMatching(cacheDir: string, prefix: string, limit = Infinity): IdIndexEntry[] {
  if (!isAscii(prefix)) return readIdIndex(cacheDir);
  const bytes = readBytes(idIndexPath(cacheDir));
  if (bytes === undefined) return [];
  if (prefix === '') return entriesOf(firstLines(bytes, limit).map((start) => lineAt(bytes, start)));
  const ids = linesWith(bytes, '\n', prefix, { ignoreCase: false, first: false, limit });
  if (bytes.startsWith(prefix)) ids.unshift({ start: 0, at: 0 }); // the first line has no line break before it
  // Without a letter in it, the prefix needs no lower-casing of the whole file.
  const names = linesWith(bytes, '\t', prefix, { ignoreCase: /[a-z]/i.test(prefix), first: true, limit });
  return entriesOf(
    mergeLines(ids, names)
      .slice(0, limit)
      .map((start) => lineAt(bytes, start)),
  );
}

/** The entry as it may be written (line breaks in a name become spaces), or undefined when its id cannot be. */
function clean(entry: IdIndexEntry): IdIndexEntry | undefined {
  if (typeof entry.id !== 'string' || /[\t\r\n]/.test(entry.id)) return undefined;
  return completable(entry.id, typeof entry.name === 'string' ? entry.name.replace(/[\t\r\n]+/g, ' ').trim() : '');
}

/**
 * Adds exercises to the index: a new id, or a known one under a new name, goes to the end
 * (the newest); a known id given without a name keeps the name it has. Nothing is written
 * when every entry is already there as given. With `replace`, the index becomes exactly these
 * entries (a catalogue's: a later duplicate id goes last). The newest `maxLines` are kept,
 * then the oldest go until the file fits ID_INDEX_MAX_BYTES; rewritten atomically. Throws on a
 * file-system error; callers treat that as harmless (completion simply knows fewer ids).
 */
export function appendIdIndex(cacheDir: string, entries: Iterable<IdIndexEntry>, options: { maxLines?: number; replace?: boolean } = {}): void {
  const maxLines = options.maxLines ?? ID_INDEX_MAX_LINES;
  const byId = new Map<string, string | undefined>(options.replace ? [] : readIdIndex(cacheDir).map((e) => [e.id, e.name]));
  let changed = options.replace === true;
  for (const raw of entries) {
    const entry = clean(raw);
    if (!entry) continue;
    const name = entry.name ?? byId.get(entry.id);
    if (byId.has(entry.id) && byId.get(entry.id) === name) continue;
    byId.delete(entry.id); // re-inserted last: the newest
    byId.set(entry.id, name);
    changed = true;
  }
  if (!changed && byId.size <= maxLines) return;
  const lines = [...byId].slice(-maxLines).map(([id, name]) => (name === undefined ? id : `${id}\t${name}`));
  // Newest last: drop from the front until the file fits its byte cap.
  let bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  let first = 0;
  while (bytes > ID_INDEX_MAX_BYTES && first < lines.length) bytes -= Buffer.byteLength(lines[first++]!) + 1;
  lines.splice(0, first);
  writeFileAtomic(idIndexPath(cacheDir), lines.length > 0 ? `${lines.join('\n')}\n` : '');
}
