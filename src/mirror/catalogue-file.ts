/**
 * The files a mirror writes into the catalogue directory: `exercises.jsonl`, replaced atomically and
 * holding only listed ids and entries a catalogue can hold, so `serve` and `--catalogue` accept it; the
 * media in the layout `serve` reads, with a media index mapping names a safe path had to change.
 */
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { MEDIA, type MediaKind } from '../catalogue/media.js';
import type { CatalogueEntry, Translation } from '../catalogue/types.js';
import { ValidationError, validateCatalogueEntry } from '../catalogue/validate.js';
import { type MediaJob, type UnusableEntry, recordJobs, uniqueJobs } from '../media/jobs.js';
import { replaceFileSync } from '../util/write-all.js';
import { CATALOGUE_FILE, MEDIA_INDEX_FILE, type MediaIndexFiles, mediaIndexText, readMediaIndex } from '../catalogue/catalogue-dir.js';
import type { Fetched } from './work-file.js';

/** The catalogue entry of `id`: its record with the translations fetched; undefined before its record. */
export function catalogueEntry(id: string, fetched: Fetched): CatalogueEntry | undefined {
  const record = fetched.records.get(id);
  if (!record) return undefined;
  const { translations: _ignored, ...rest } = record as CatalogueEntry;
  const translations: Record<string, Translation> = {};
  for (const [lang, t] of fetched.langs.get(id) ?? []) if (t) translations[lang] = t;
  return Object.keys(translations).length > 0 ? { ...rest, id, translations } : { ...rest, id };
}

/** Rewrites exercises.jsonl; returns its entry count. Entries a catalogue cannot hold go to `onLeftOut`. */
export function writeCatalogueFile(dir: string, listedIds: readonly string[], fetched: Fetched, onLeftOut: (id: string, reason: string) => void): number {
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
        onLeftOut(id, err.message);
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

/** The jobs for every entry's media of the kinds asked, each path distinct and in the catalogue layout, under the catalogue root. */
export function mirrorMediaJobs(
  api: ApiClient,
  dir: string,
  entries: readonly CatalogueEntry[],
  kinds: readonly MediaKind[],
  onUnusable: (u: UnusableEntry) => void,
): MediaJob[] {
  return kinds.flatMap((kind) => {
    const folder = join(dir, MEDIA[kind].folder);
    const found = entries.flatMap((entry) => recordJobs(api, folder, entry.id, entry, [kind], onUnusable));
    return uniqueJobs(found, onUnusable).map((job) => ({ ...job, dir, path: join(dirname(job.path), 'premium', basename(job.path)) }));
  });
}

/** Rewrites the media index for the kinds mirrored now; the other kinds' entries are kept. */
export function writeMediaIndex(dir: string, kinds: readonly MediaKind[], jobs: readonly MediaJob[]): void {
  const files: MediaIndexFiles = readMediaIndex(dir);
  // Null-prototype maps: an id such as `__proto__` is a key like any other.
  for (const kind of kinds) files[MEDIA[kind].folder] = Object.create(null) as Record<string, Record<string, string>>;
  for (const job of jobs) {
    const { folder, extension } = MEDIA[job.kind];
    const byId = (files[folder] ??= Object.create(null) as Record<string, Record<string, string>>);
    const byName = Object.hasOwn(byId, job.exerciseId) ? byId[job.exerciseId]! : (byId[job.exerciseId] = Object.create(null) as Record<string, string>);
    byName[`${job.name}${extension}`] = relative(dir, job.path).split(sep).join('/');
  }
  replaceFileSync(join(dir, MEDIA_INDEX_FILE), [mediaIndexText(files)]);
}
