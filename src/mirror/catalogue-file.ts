/**
 * Writes `<dir>/exercises.jsonl` from the listing and the work file, atomically: a temporary
 * file in the same directory, every byte checked written, fsynced, then renamed over the old
 * one (util/write-all.ts), so `serve` reading the directory at any moment sees the previous
 * catalogue or the new one, never half of one; a full disk leaves the previous one whole.
 * Only listed ids are written (an id the service no longer lists disappears), each under the id
 * it was listed by (a record without an id, or with another one, would be refused by `serve`),
 * and only entries a catalogue can hold (validateCatalogueEntry), so `serve` and `--catalogue`
 * accept every file written here.
 */
import { join } from 'node:path';
import type { CatalogueEntry, Translation } from '../catalogue/types.js';
import { ValidationError, validateCatalogueEntry } from '../catalogue/validate.js';
import { replaceFileSync } from '../util/write-all.js';
import { CATALOGUE_FILE } from '../catalogue/catalogue-dir.js';
import type { Fetched } from './work-file.js';

/** The catalogue entry of `id`: its record, under `id`, with the translations fetched for it; undefined before its record. */
export function catalogueEntry(id: string, fetched: Fetched): CatalogueEntry | undefined {
  const record = fetched.records.get(id);
  if (!record) return undefined;
  const { translations: _ignored, ...rest } = record as CatalogueEntry;
  const translations: Record<string, Translation> = {};
  for (const [lang, t] of fetched.langs.get(id) ?? []) if (t) translations[lang] = t;
  return Object.keys(translations).length > 0 ? { ...rest, id, translations } : { ...rest, id };
}

/** An entry left out of the file, and why. */
export interface LeftOut {
  id: string;
  reason: string;
}

/** Rewrites exercises.jsonl; returns how many entries it holds. Entries a catalogue cannot hold go to `onLeftOut`. */
export function writeCatalogueFile(dir: string, listedIds: readonly string[], fetched: Fetched, onLeftOut?: (l: LeftOut) => void): number {
  let count = 0;
  function* chunks(): Generator<string> {
    let chunk = '';
    for (const id of listedIds) {
      const entry = catalogueEntry(id, fetched);
      if (!entry) continue;
      try {
        validateCatalogueEntry(entry);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        onLeftOut?.({ id, reason: err.message });
        continue;
      }
      chunk += `${JSON.stringify(entry)}\n`;
      count += 1;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  replaceFileSync(join(dir, CATALOGUE_FILE), chunks());
  return count;
}
