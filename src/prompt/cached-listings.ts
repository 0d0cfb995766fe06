/**
 * The exercises the response cache holds for one origin: the items of every list answer
 * (query, ids) and every record, read from the store's own files (cache/store-files.ts checks
 * each entry whole). Read only when the picker opens: no request, and a TAB or a cache hit
 * never pays for it.
 */
import { entryNames, readEntryFile } from '../cache/store-files.js';
import { normalOrigin } from '../cache/cached-get.js';

/** The exercise objects of the cached answers for `origin`: list items and records, as stored. */
export async function cachedExercises(storeDir: string, origin: string): Promise<unknown[]> {
  const marker = ` ${normalOrigin(origin)} `;
  const out: unknown[] = [];
  for (const name of entryNames(storeDir)) {
    const entry = readEntryFile(storeDir, name);
    if (!entry?.key.includes(marker)) continue;
    let body: unknown;
    try {
      body = JSON.parse(entry.body.toString('utf8'));
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
