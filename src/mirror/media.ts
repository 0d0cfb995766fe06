/**
 * The media of a mirror, through the download engine (verified, resumable, skip-existing,
 * per-file lock) into the layout `serve` reads: `<dir>/images/<id>/premium/<name>.png` and
 * `<dir>/videos/<id>/premium/<name>.mp4`, each id and name as a safe path component
 * (media/safe-path.ts). Where that changed a name (`CON`, `a/b`, `Plank` beside `plank`), the
 * catalogue's media index (catalogue-dir.ts) maps the URL's names to the file, so `serve` and
 * `--catalogue` find every file fetched.
 */
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { MEDIA, type MediaKind } from '../catalogue/media.js';
import type { CatalogueEntry } from '../catalogue/types.js';
import { type MediaJob, type UnusableEntry, jobsForRecord, uniqueJobs } from '../media/jobs.js';
import { replaceFileSync } from '../util/write-all.js';
import { MEDIA_INDEX_FILE, type MediaIndexFiles, mediaIndexText, readMediaIndex } from '../catalogue/catalogue-dir.js';

/**
 * The jobs for every entry's media of the kinds asked, each path in the catalogue layout and
 * distinct from every other (across exercises too). Every job's output directory is the
 * catalogue root, so a link planted at `images/` or below is refused (media/jobs.ts jobDirPreparer).
 */
export function mirrorMediaJobs(
  api: ApiClient,
  dir: string,
  entries: Iterable<CatalogueEntry>,
  kinds: readonly MediaKind[],
  onUnusable: (u: UnusableEntry) => void,
): MediaJob[] {
  const list = [...entries];
  const jobs: MediaJob[] = [];
  for (const kind of kinds) {
    const folder = join(dir, MEDIA[kind].folder);
    const found: MediaJob[] = [];
    for (const entry of list) found.push(...jobsForRecord(api, folder, entry.id, entry, [kind], onUnusable));
    for (const job of uniqueJobs(found, onUnusable)) {
      jobs.push({ ...job, dir, path: join(dirname(job.path), 'premium', basename(job.path)) });
    }
  }
  return jobs;
}

/**
 * Rewrites the media index with the files of these jobs for the kinds mirrored now; the
 * entries of kinds not mirrored this run are kept as they were.
 */
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
