/**
 * Media jobs: one file to fetch, with its URL (from ApiClient.mediaUrl: nothing here builds
 * URLs) and its safe local path `<dir>/<id>/<name>.png|.mp4`.
 */
import { dirname } from 'node:path';
import { MEDIA, type MediaKind } from '../catalogue/media.js';
import type { ApiClient } from '../api/client.js';
import { MalformedResponseError } from '../errors.js';
import { type MediaLists, mediaEntries, mediaFileName, mediaName } from './media-names.js';
import { assertRealInside, collisionKey, distinctComponent, pathInside, safeComponent } from './safe-path.js';
import { escapeUnsafe, shorten } from '../util/text.js';
import { ensureRealDirAsync } from '../util/real-dir.js';

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

export type MediaUrlSource = Pick<ApiClient, 'mediaUrl'>;

/** Printable in a message: control, bidi and invisible characters shown escaped, very long values shortened. */
export function printable(value: string): string {
  return shorten(escapeUnsafe(value), 80);
}

/** Folders remembered by a run's preparer: enough for the files in flight, bounded for `download --all`. */
const PREPARED_FOLDERS = 256;

/**
 * A run's prepareJobDir: creates a job's folder one level at a time below the output directory,
 * refusing a symbolic link at any level (exit 6, naming it: a link planted at `<dir>/<id>` or a
 * mirror's `images/` cannot redirect the write), then checks again that its real location is
 * inside the output directory. Once per folder: an exercise's files share one check (checked
 * per file, they would hold up every file over a slow link).
 */
export function jobDirPreparer(): (job: MediaJob) => Promise<void> {
  const prepared = new Map<string, Promise<void>>();
  return (job) => {
    const parent = dirname(job.path);
    let ready = prepared.get(parent);
    if (ready === undefined) {
      if (prepared.size >= PREPARED_FOLDERS) prepared.clear();
      ready = ensureRealDirAsync(job.dir, parent).then(() => assertRealInside(job.dir, parent));
      prepared.set(parent, ready);
    }
    return ready;
  };
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
 * The jobs for the media a record (or list summary) lists, for the kinds asked, each with a
 * path of its own (uniqueJobs). With `onUnusable`, an entry that no URL can fetch is handed to
 * it and left out, so one bad record does not stop the others; without it, the
 * MalformedResponseError is thrown.
 */
export function jobsForRecord(
  api: MediaUrlSource,
  dir: string,
  exerciseId: string,
  record: MediaLists,
  kinds: readonly MediaKind[],
  onUnusable?: (unusable: UnusableEntry) => void,
): MediaJob[] {
  return uniqueJobs(recordJobs(api, dir, exerciseId, record, kinds, onUnusable), onUnusable);
}

/** jobsForRecord before uniqueJobs, for a caller that gives a whole page's jobs their paths at once. */
export function recordJobs(...[api, dir, exerciseId, record, kinds, onUnusable]: Parameters<typeof jobsForRecord>): MediaJob[] {
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

/** Code-unit order: the same on every machine and in every locale. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Takes the first candidate whose collision key is free (made only when the ones before are taken: a hash costs); undefined when none is. */
function claimFirst(taken: Set<string>, candidates: ReadonlyArray<() => string>): string | undefined {
  for (const make of candidates) {
    const candidate = make();
    const key = collisionKey(candidate);
    if (taken.has(key)) continue;
    taken.add(key);
    return candidate;
  }
  return undefined;
}

/** What uniqueJobs handed out, kept across its calls for a listing's pages. */
export interface PathClaims {
  /** Files already given a path (by identity). */
  seen: Set<string>;
  /** Each exercise's folder (by output directory and id); undefined when it could have none. */
  folders: Map<string, string | undefined>;
  /** Collision keys taken in each output directory (folders) and in each folder (files). */
  taken: Map<string, Set<string>>;
}

export function newPathClaims(): PathClaims {
  return { seen: new Set(), folders: new Map(), taken: new Map() };
}

/**
 * Gives every distinct file its own path, as a file system that folds case or Unicode
 * normalisation would see it (safe-path.ts collisionKey), and keeps a file asked twice once.
 *
 * - The same file twice (same id, kind, name and URL: an id listed twice, say) is kept once.
 * - Distinct exercise ids whose folders would be one (`Plank` and `plank`, `é` and `e` + U+0301)
 *   are told apart: the id first in code-unit order keeps its plain folder, the others get one
 *   with a short hash of the id (`plank-1a2b3c4d`). Likewise distinct media within one folder.
 *   The order of the input does not matter, so a rerun finds the same files. With `claims`
 *   kept from earlier calls (a listing's pages), what those gave out stays theirs.
 * - A job that still finds no path of its own (only a hash collision could do that) is left out
 *   and handed to `onDropped`, which must report it (a line, exit 7): none is dropped silently.
 *
 * Jobs come back in their input order, with their paths set.
 */
export function uniqueJobs(jobs: Iterable<MediaJob>, onDropped?: (dropped: UnusableEntry) => void, claims = newPathClaims()): MediaJob[] {
  const folderKey = (j: MediaJob): string => `${j.dir}\0${j.exerciseId}`;
  const identity = (j: MediaJob): string => `${folderKey(j)}\0${j.kind}\0${j.name}\0${j.url.href}`;
  const { seen, folders } = claims;
  const taken = (key: string): Set<string> => claims.taken.get(key) ?? claims.taken.set(key, new Set()).get(key)!;

  // The same file asked again is kept once, where it first came (Set.add returns the set: truthy).
  const distinct = [...jobs].filter((job) => !seen.has(identity(job)) && seen.add(identity(job)));
  const ordered = [...distinct].sort((a, b) => byCodeUnits(identity(a), identity(b)));

  // In code-unit order: one folder per distinct id in each output directory (claimed by its first
  // job), and one file per distinct (kind, name, URL) in each folder.
  const files = new Map<MediaJob, string | undefined>();
  for (const job of ordered) {
    const folder = folderKey(job);
    if (!folders.has(folder)) folders.set(folder, claimFirst(taken(job.dir), [() => safeComponent(job.exerciseId), () => distinctComponent(job.exerciseId)]));
    if (folders.get(folder) === undefined) continue;
    const ext = MEDIA[job.kind].extension;
    files.set(
      job,
      claimFirst(taken(folder), [
        () => `${safeComponent(job.name)}${ext}`,
        () => `${distinctComponent(job.name)}${ext}`,
        () => `${distinctComponent(job.name, job.url.href)}${ext}`,
      ]),
    );
  }

  return distinct.flatMap((job) => {
    const folder = folders.get(folderKey(job));
    const file = files.get(job);
    if (folder !== undefined && file !== undefined) return [{ ...job, path: pathInside(job.dir, folder, file) }];
    const why = folder === undefined ? "its folder would be the same as another exercise's" : 'it would be the same file as another of its media';
    const error = new MalformedResponseError(`Left out: ${why}.`, { details: { exercise: job.exerciseId, name: job.name } });
    if (!onDropped) throw error;
    onDropped({ exerciseId: job.exerciseId, kind: job.kind, entry: job.name, error });
    return [];
  });
}
