/** Media jobs: one file to fetch, its URL (from ApiClient.mediaUrl) and its safe local path `<dir>/<id>/<name>.png|.mp4`. */
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
  name: string;
  url: URL;
  dir: string;
  /** Absolute final path, inside `dir`. */
  path: string;
  /** For messages: `image "start" of exercise Barbell_Bench_Press`. */
  what: string;
}

export type MediaUrlSource = Pick<ApiClient, 'mediaUrl'>;

/** Printable in a message: unsafe characters escaped, long values shortened. */
export function printable(value: string): string {
  return shorten(escapeUnsafe(value), 80);
}

/** Folders a run's preparer remembers: enough for the files in flight, bounded for `download --all`. */
const PREPARED_FOLDERS = 256;

/**
 * A run's prepareJobDir: makes a job's folder one level at a time, refusing a link at any level (exit 6),
 * then checks its real location is inside the output directory. Once per folder, not per file.
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

/** A media entry no URL can fetch (an id of "." or ".."): it makes no job. */
export interface UnusableEntry {
  exerciseId: string;
  kind: MediaKind;
  entry: string;
  error: MalformedResponseError;
}

export function describeUnusable(u: UnusableEntry): string {
  return `${u.kind} "${printable(u.entry)}" of exercise ${printable(u.exerciseId)}: ${u.error.message}`;
}

/**
 * The jobs for the media a record lists, of the kinds asked, each with a path of its own. An entry no URL
 * can fetch goes to `onUnusable` (one bad record does not stop the others); without it, it throws.
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

/** jobsForRecord before uniqueJobs, for a caller that gives a whole page its paths at once. */
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

/** The first candidate whose collision key is free (each made only when needed: a hash costs); undefined when none is. */
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

/** What uniqueJobs handed out, kept across a listing's pages. */
export interface PathClaims {
  seen: Set<string>;
  /** Each exercise's folder (by output directory and id); undefined when it could have none. */
  folders: Map<string, string | undefined>;
  /** Collision keys taken in each output directory and in each folder. */
  taken: Map<string, Set<string>>;
}

export function newPathClaims(): PathClaims {
  return { seen: new Set(), folders: new Map(), taken: new Map() };
}

/**
 * Gives every distinct file its own path, as a case- or normalisation-folding file system sees it; a file
 * asked twice is kept once. Ids whose folders would be one (`Plank`, `plank`) are told apart: the first in
 * code-unit order keeps the plain folder, the others get a short hash (`plank-1a2b3c4d`), whatever the input
 * order, so a rerun finds the same files; likewise media within a folder. A job still without a path (only a
 * hash collision) goes to `onDropped`, which must report it. Jobs come back in input order.
 */
export function uniqueJobs(jobs: Iterable<MediaJob>, onDropped?: (dropped: UnusableEntry) => void, claims = newPathClaims()): MediaJob[] {
  const folderKey = (j: MediaJob): string => `${j.dir}\0${j.exerciseId}`;
  const identity = (j: MediaJob): string => `${folderKey(j)}\0${j.kind}\0${j.name}\0${j.url.href}`;
  const { seen, folders } = claims;
  const taken = (key: string): Set<string> => claims.taken.get(key) ?? claims.taken.set(key, new Set()).get(key)!;

  // The same file asked again is kept once (Set.add returns the set: truthy). Each identity made once: a page may hold 150,000.
  const keyed = [...jobs].map((job) => ({ job, id: identity(job) })).filter(({ id }) => !seen.has(id) && seen.add(id));
  const distinct = keyed.map(({ job }) => job);
  const ordered = keyed.sort((a, b) => byCodeUnits(a.id, b.id)).map(({ job }) => job);

  // In code-unit order: one folder per distinct id in each output directory, one file per distinct (kind, name, URL).
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
