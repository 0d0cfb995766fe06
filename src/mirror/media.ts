/**
 * The media of a mirror, through the download engine (verified, resumable, skip-existing,
 * per-file lock) into the layout `serve` reads: `<dir>/images/<id>/premium/<name>.png` and
 * `<dir>/videos/<id>/premium/<name>.mp4`.
 */
import { basename, dirname, join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { MEDIA, type MediaKind } from '../catalogue/media.js';
import type { CatalogueEntry } from '../catalogue/types.js';
import { type MediaJob, type UnusableEntry, jobsForRecord } from '../media/jobs.js';

/** The jobs for every entry's media of the kinds asked, each path in the catalogue layout. */
export function mirrorMediaJobs(api: ApiClient, dir: string, entries: Iterable<CatalogueEntry>, kinds: readonly MediaKind[], onUnusable: (u: UnusableEntry) => void): MediaJob[] {
  const jobs: MediaJob[] = [];
  for (const kind of kinds) {
    const folder = join(dir, MEDIA[kind].folder);
    for (const entry of entries) {
      for (const job of jobsForRecord(api, folder, entry.id, entry, [kind], onUnusable)) {
        jobs.push({ ...job, path: join(dirname(job.path), 'premium', basename(job.path)) });
      }
    }
  }
  return jobs;
}
