/**
 * The exercises the response cache holds for one origin: the items of every list answer
 * (query, ids) and every record, read from the store's own files (cache/store-read.ts checks
 * each entry's integrity). Read only when the picker opens: no request, and a TAB or a cache
 * hit never pays for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_DIR, parseBucket, readStoreEntry } from '../cache/store-read.js';
import { normalOrigin } from '../cache/keys.js';

/** Every bucket file under the store's index directory. */
function bucketFiles(storeDir: string): string[] {
  try {
    return readdirSync(join(storeDir, INDEX_DIR), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath ?? (d as unknown as { path: string }).path, d.name));
  } catch {
    return []; // no cache yet
  }
}

/** The keys stored for `origin` (the last line for a key wins; a deleted entry has no integrity). */
function keysFor(storeDir: string, origin: string): string[] {
  const marker = ` ${normalOrigin(origin)} `;
  const live = new Map<string, boolean>();
  for (const file of bucketFiles(storeDir)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const entry of parseBucket(text)) {
      if (typeof entry.key !== 'string' || !entry.key.includes(marker)) continue;
      live.set(entry.key, typeof entry.integrity === 'string' && entry.integrity !== '');
    }
  }
  return [...live].filter(([, ok]) => ok).map(([key]) => key);
}

/** The exercise objects of the cached answers for `origin`: list items and records, as stored. */
export async function cachedExercises(storeDir: string, origin: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const key of keysFor(storeDir, origin)) {
    const read = await readStoreEntry(storeDir, key).catch(() => undefined);
    if (read?.status !== 'found') continue;
    let body: unknown;
    try {
      body = JSON.parse(read.data.toString('utf8'));
    } catch {
      continue;
    }
    if (typeof body !== 'object' || body === null) continue;
    const list = (body as { exercises?: unknown }).exercises;
    if (Array.isArray(list)) out.push(...(list as unknown[]));
    else out.push(body);
  }
  return out;
}
