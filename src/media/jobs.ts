/**
 * Media jobs: one file to fetch, with its URL (from ApiClient.mediaUrl: nothing here builds
 * URLs) and its safe local path `<dir>/<id>/<name>.png|.mp4`.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MediaKind } from '../catalogue/media.js';
import { MalformedResponseError } from '../errors.js';
import { mediaEntries, mediaFileName, mediaName } from './media-names.js';
import { assertRealInside, pathInside, safeComponent } from './safe-path.js';
import { escapeUnsafe, shorten } from '../util/text.js';

export interface MediaJob {
  exerciseId: string;
  kind: MediaKind;
  /** The media name as the record gave it (extension stripped). */
  name: string;
  url: URL;
  /** The output directory the path must stay inside. */
  dir: string;
  /** Absolute final path, inside the output directory. */
  path: string;
  /** For messages: `image "start" of exercise Barbell_Bench_Press`. */
  what: string;
}

export interface MediaUrlSource {
  mediaUrl(kind: MediaKind, exerciseId: string, entry: string): URL;
}

/** Printable in a message: control, bidi and invisible characters shown escaped, very long values shortened. */
export function printable(value: string): string {
  return shorten(escapeUnsafe(value), 80);
}

/**
 * Creates the job's folder and checks that, symbolic links followed, it is still inside the
 * output directory (a link planted at `<dir>/<id>` cannot redirect the write).
 */
export async function prepareJobDir(job: MediaJob): Promise<void> {
  const parent = dirname(job.path);
  await mkdir(parent, { recursive: true });
  await assertRealInside(job.dir, parent);
}

export function mediaJob(api: MediaUrlSource, dir: string, exerciseId: string, kind: MediaKind, entry: string): MediaJob {
  const name = mediaName(kind, entry);
  return {
    exerciseId,
    kind,
    name,
    url: api.mediaUrl(kind, exerciseId, entry),
    dir,
    path: pathInside(dir, safeComponent(exerciseId), mediaFileName(kind, entry)),
    what: `${kind} "${printable(name)}" of exercise ${printable(exerciseId)}`,
  };
}

/** A media entry of a record that no URL can fetch (an id of "." or "..", say): it makes no job. */
export interface UnusableEntry {
  exerciseId: string;
  kind: MediaKind;
  entry: string;
  error: MalformedResponseError;
}

/** One line for people: `image "start" of exercise ..: <why>`. */
export function describeUnusable(u: UnusableEntry): string {
  return `${u.kind} "${printable(u.entry)}" of exercise ${printable(u.exerciseId)}: ${u.error.message}`;
}

/**
 * The jobs for the media a record (or list summary) lists, for the kinds asked. With
 * `onUnusable`, an entry that no URL can fetch is handed to it and left out, so one bad
 * record does not stop the others; without it, the MalformedResponseError is thrown.
 */
export function jobsForRecord(
  api: MediaUrlSource,
  dir: string,
  exerciseId: string,
  record: { premiumImages?: unknown; premiumVideos?: unknown },
  kinds: readonly MediaKind[],
  onUnusable?: (unusable: UnusableEntry) => void,
): MediaJob[] {
  const jobs: MediaJob[] = [];
  for (const { kind, entry } of mediaEntries(record, kinds)) {
    try {
      jobs.push(mediaJob(api, dir, exerciseId, kind, entry));
    } catch (err) {
      if (!(err instanceof MalformedResponseError) || !onUnusable) throw err;
      onUnusable({ exerciseId, kind, entry, error: err });
    }
  }
  return jobs;
}

/** Drops later jobs that would write the same file (an id listed twice, say). */
export function uniqueJobs(jobs: Iterable<MediaJob>): MediaJob[] {
  const seen = new Set<string>();
  const out: MediaJob[] = [];
  for (const job of jobs) {
    if (seen.has(job.path)) continue;
    seen.add(job.path);
    out.push(job);
  }
  return out;
}
