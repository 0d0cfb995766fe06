/**
 * The id index: exercise ids and names seen in answers of the service, kept by the cache
 * layer in `<user cache dir>/exercises/completion-ids.tsv` so that TAB can offer them
 * without a request and without reading the cache's entries.
 *
 * The contract: a UTF-8 text file, one exercise per line, `id<TAB>name` (or just `id` when
 * the name is unknown), oldest first. Ids and names never contain a tab or a line break
 * (ids that would are left out; such characters in names become spaces). At most
 * ID_INDEX_MAX_LINES lines: the oldest go first. Rewritten whole and renamed into place,
 * so a reader never sees half a file; two writers at once may lose one's additions, which
 * only means those ids are offered after their next answer.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const ID_INDEX_FILE = 'completion-ids.tsv';
export const ID_INDEX_MAX_LINES = 50_000;

export interface IdIndexEntry {
  id: string;
  name?: string;
}

/** The index file in a cache directory (the one holding the cache's own files). */
export function idIndexPath(cacheDir: string): string {
  return join(cacheDir, ID_INDEX_FILE);
}

/** Every entry of the index, oldest first; none when the file is missing or unreadable. */
export function readIdIndex(cacheDir: string): IdIndexEntry[] {
  let text: string;
  try {
    text = readFileSync(idIndexPath(cacheDir), 'utf8');
  } catch {
    return [];
  }
  const entries: IdIndexEntry[] = [];
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    const id = tab < 0 ? line : line.slice(0, tab);
    if (id === '') continue;
    const name = tab < 0 ? '' : line.slice(tab + 1).replace(/\r$/, '');
    entries.push(name === '' ? { id } : { id, name });
  }
  return entries;
}

const LINE_BREAKS = /[\t\r\n]/;

/** The entry as it may be written, or undefined when its id cannot be. */
function clean(entry: IdIndexEntry): IdIndexEntry | undefined {
  if (typeof entry.id !== 'string' || entry.id === '' || LINE_BREAKS.test(entry.id)) return undefined;
  const name = typeof entry.name === 'string' ? entry.name.replace(/[\t\r\n]+/g, ' ').trim() : '';
  return name === '' ? { id: entry.id } : { id: entry.id, name };
}

export interface AppendIdIndexOptions {
  /** Lines kept at most (default ID_INDEX_MAX_LINES). */
  maxLines?: number;
}

/**
 * Adds exercises to the index: a new id, or a known one under a new name, goes to the end
 * (the newest); a known id given without a name keeps the name it has. Nothing is written
 * when every entry is already there as given. Throws on a file-system error; callers treat
 * that as harmless (completion simply knows fewer ids).
 */
export async function appendIdIndex(cacheDir: string, entries: Iterable<IdIndexEntry>, options: AppendIdIndexOptions = {}): Promise<void> {
  const maxLines = options.maxLines ?? ID_INDEX_MAX_LINES;
  const byId = new Map<string, string | undefined>();
  for (const e of readIdIndex(cacheDir)) byId.set(e.id, e.name);

  let changed = false;
  for (const raw of entries) {
    const entry = clean(raw);
    if (!entry) continue;
    const known = byId.has(entry.id);
    const name = entry.name ?? byId.get(entry.id);
    if (known && byId.get(entry.id) === name) continue;
    byId.delete(entry.id); // re-inserted last: the newest
    byId.set(entry.id, name);
    changed = true;
  }
  if (!changed && byId.size <= maxLines) return;

  const lines = [...byId].slice(-maxLines).map(([id, name]) => (name === undefined ? id : `${id}\t${name}`));
  await mkdir(cacheDir, { recursive: true });
  const file = idIndexPath(cacheDir);
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(partial, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    await rename(partial, file);
  } catch (err) {
    await unlink(partial).catch(() => {});
    throw err;
  }
}
