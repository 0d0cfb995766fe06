/**
 * The id index: ids and names seen in the service's answers, kept as `completion-ids.tsv` in the cache
 * directory so a TAB offers them without a request. One `id<TAB>name` (or `id`) a line, oldest first,
 * only completable entries, bounded in lines and bytes (oldest go first). Rewritten whole and renamed
 * into place, so a reader never sees half a file; two writers may lose one's additions (offered later).
 */
import { LOCAL_INDEX_MAX_BYTES } from '../defaults.js';
import { readRegularFileSync } from '../util/safe-open.js';
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { firstLines, isAscii, lineAt, linesWith, mergeLines, readBytes } from './line-scan.js';

/*
 * What completion may offer: printable text of a sane length. zsh prints candidates raw, so an id
 * holding `ESC]0;title BEL` would retitle the window on a TAB; such entries stay out (they can be typed).
 */

export const COMPLETION_MAX_CHARS = 256;

/** C0 and C1 controls, DEL, and the bidi marks, embeddings, overrides and isolates. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function isCompletable(text: string): boolean {
  return text.length <= COMPLETION_MAX_CHARS && !UNPRINTABLE.test(text);
}

/** Replaces a small file atomically (written aside, renamed), private whatever the umask: the indexes list what the user looked at. */
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
/** Lines kept at most: a few times the whole catalogue, few enough for a TAB. */
export const ID_INDEX_MAX_LINES = 5_000;
/** Bytes kept at most: the oldest lines go first past it. */
export const ID_INDEX_MAX_BYTES = 1024 * 1024;

export interface IdIndexEntry {
  id: string;
  name?: string;
}

export function idIndexPath(cacheDir: string): string {
  return join(cacheDir, ID_INDEX_FILE);
}

/** An id and name as they may be offered, or undefined (an id with controls, or too long). */
function completable(id: string, name: string): IdIndexEntry | undefined {
  if (id === '' || !isCompletable(id) || !isCompletable(name)) return undefined;
  return name === '' ? { id } : { id, name };
}

function entriesOf(lines: readonly string[]): IdIndexEntry[] {
  return lines.flatMap((raw) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const tab = line.indexOf('\t');
    return completable(tab < 0 ? line : line.slice(0, tab), tab < 0 ? '' : line.slice(tab + 1)) ?? [];
  });
}

/** Every entry, oldest first; none when missing or unreadable. */
export function readIdIndex(cacheDir: string): IdIndexEntry[] {
  try {
    return entriesOf(readRegularFileSync(idIndexPath(cacheDir), { maxBytes: LOCAL_INDEX_MAX_BYTES }).toString('utf8').split('\n'));
  } catch {
    return [];
  }
}

/** The first `limit` entries whose id or name (any case) starts with `prefix` (beyond ASCII: all, for the caller to filter), found by searching the file. */
export function readIdIndexMatching(cacheDir: string, prefix: string, limit = Infinity): IdIndexEntry[] {
  if (!isAscii(prefix)) return readIdIndex(cacheDir);
  const bytes = readBytes(idIndexPath(cacheDir));
  if (bytes === undefined) return [];
  if (prefix === '') return entriesOf(firstLines(bytes, limit).map((start) => lineAt(bytes, start)));
  const ids = linesWith(bytes, '\n', prefix, { ignoreCase: false, first: false, limit });
  if (bytes.startsWith(prefix)) ids.unshift({ start: 0, at: 0 }); // the first line has no line break before it
  const names = linesWith(bytes, '\t', prefix, { ignoreCase: /[a-z]/i.test(prefix), first: true, limit });
  return entriesOf(
    mergeLines(ids, names)
      .slice(0, limit)
      .map((start) => lineAt(bytes, start)),
  );
}

/** The entry as it may be written (line breaks in a name as spaces), or undefined when its id cannot be. */
function clean(entry: IdIndexEntry): IdIndexEntry | undefined {
  if (typeof entry.id !== 'string' || /[\t\r\n]/.test(entry.id)) return undefined;
  return completable(entry.id, typeof entry.name === 'string' ? entry.name.replace(/[\t\r\n]+/g, ' ').trim() : '');
}

/**
 * Adds exercises: a new id, or a known one under a new name, goes last (newest); nothing is written when
 * all are there. With `replace`, the index becomes exactly these entries. Trimmed to `maxLines` and the
 * byte cap, rewritten atomically; a file-system error throws (callers ignore it).
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
  let bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  let first = 0;
  while (bytes > ID_INDEX_MAX_BYTES && first < lines.length) bytes -= Buffer.byteLength(lines[first++]!) + 1;
  lines.splice(0, first);
  writeFileAtomic(idIndexPath(cacheDir), lines.length > 0 ? `${lines.join('\n')}\n` : '');
}
