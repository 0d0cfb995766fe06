/**
 * Writes `<dir>/exercises.jsonl` from the listing and the work file, atomically: a temporary
 * file in the same directory, fsynced, then renamed over the old one, so `serve` reading the
 * directory at any moment sees the previous catalogue or the new one, never half of one.
 * Only listed ids are written (an id the service no longer lists disappears).
 */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogueEntry, Translation } from '../catalogue/types.js';
import { CATALOGUE_FILE } from '../catalogue/catalogue-dir.js';
import type { Fetched } from './work-file.js';

/** The catalogue entry of `id`: its record with the translations fetched for it; undefined before its record. */
export function catalogueEntry(id: string, fetched: Fetched): CatalogueEntry | undefined {
  const record = fetched.records.get(id);
  if (!record) return undefined;
  const { translations: _ignored, ...rest } = record as CatalogueEntry;
  const translations: Record<string, Translation> = {};
  for (const [lang, t] of fetched.langs.get(id) ?? []) if (t) translations[lang] = t;
  return Object.keys(translations).length > 0 ? { ...rest, translations } : { ...rest };
}

/** Rewrites exercises.jsonl; returns how many entries it holds. */
export function writeCatalogueFile(dir: string, listedIds: readonly string[], fetched: Fetched): number {
  const final = join(dir, CATALOGUE_FILE);
  const temp = join(dir, `.${CATALOGUE_FILE}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w');
  let count = 0;
  try {
    let chunk = '';
    for (const id of listedIds) {
      const entry = catalogueEntry(id, fetched);
      if (!entry) continue;
      chunk += `${JSON.stringify(entry)}\n`;
      count += 1;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk) writeSync(fd, chunk);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, final);
  return count;
}
