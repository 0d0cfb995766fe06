/**
 * Planning a bulk download with as few catalogue requests as possible: one record request per given id;
 * for a listing its pages only, the media read from the summaries, with no record request per exercise
 * (the service puts the media in summaries whenever the plan allows them, so records would say the same).
 */
import { fetchRecords } from '../api/fetch-records.js';
import type { ApiClient, QueryFilterParams } from '../api/client.js';
import { type ListingProblem, paginatePages } from '../api/paging.js';
import { LIMIT_MAX } from '../defaults.js';
import type { MediaKind } from '../catalogue/media.js';
import { NotFoundError } from '../errors.js';
import { type MediaJob, type UnusableEntry, newPathClaims, recordJobs, uniqueJobs } from './jobs.js';
import { type MediaLists, hasMediaFields } from './media-names.js';
import { looksComplete } from './verify.js';
import { partBytes, partPath } from './download/file-sink.js';
import { readdir } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';

/** What planning found: the jobs, the ids that were not found, and the catalogue requests spent. */
export interface DownloadPlan {
  jobs: MediaJob[];
  missing: string[];
  /** Entries no URL can fetch, and jobs without a path of their own: reported as found, exit 7, the rest still fetched. */
  unusable: UnusableEntry[];
  /** Exercises looked at, and how many of them list any media of the kinds asked. */
  exercises: number;
  withMedia: number;
  /** How many records carry the premium fields at all (a free plan's never do). */
  withMediaFields: number;
  requests: number;
  /** Why the listing stopped before its end, when it did. */
  incomplete?: ListingProblem;
}

export interface PlanTarget {
  kinds: readonly MediaKind[];
  dir: string;
  lang?: string;
  onUnusable?: (unusable: UnusableEntry) => void;
}

/** Keeps an entry left out in the plan and tells the target. */
function reportTo(plan: DownloadPlan, target: PlanTarget): (unusable: UnusableEntry) => void {
  return (unusable) => {
    plan.unusable.push(unusable);
    target.onUnusable?.(unusable);
  };
}

export function emptyPlan(): DownloadPlan {
  return { jobs: [], missing: [], unusable: [], exercises: 0, withMedia: 0, withMediaFields: 0, requests: 0 };
}

/** Counts an exercise in the plan and returns its media jobs, without paths (given once the page is in). */
function exerciseJobs(plan: DownloadPlan, api: ApiClient, target: PlanTarget, exerciseId: string, record: MediaLists): MediaJob[] {
  const unusableBefore = plan.unusable.length;
  const jobs = recordJobs(api, target.dir, exerciseId, record, target.kinds, reportTo(plan, target));
  plan.exercises++;
  if (jobs.length > 0 || plan.unusable.length > unusableBefore) plan.withMedia++;
  if (hasMediaFields(record, target.kinds)) plan.withMediaFields++;
  return jobs;
}

/** Each id once, blanks skipped: a repeated id costs no second request. */
async function* distinct(ids: AsyncIterable<string>): AsyncIterable<string> {
  const seen = new Set<string>();
  for await (const id of ids) {
    if (id.trim() === '' || seen.has(id)) continue;
    seen.add(id);
    yield id;
  }
}

/** One record request per distinct id, `concurrency` at a time, jobs in input order; a missing id goes to `onMissing`. */
export async function planFromIds(
  api: ApiClient,
  ids: AsyncIterable<string>,
  target: PlanTarget,
  options: { concurrency: number; onMissing?: (id: string) => void },
): Promise<DownloadPlan> {
  const plan = emptyPlan();
  const outcomes = fetchRecords(api, distinct(ids), { concurrency: options.concurrency, ...(target.lang ? { lang: target.lang } : {}) });
  for await (const outcome of outcomes) {
    plan.requests++;
    if ('error' in outcome) {
      if (!(outcome.error instanceof NotFoundError)) throw outcome.error;
      plan.missing.push(outcome.id);
      options.onMissing?.(outcome.id);
      continue;
    }
    for (const job of exerciseJobs(plan, api, target, outcome.record.id ?? outcome.id, outcome.record)) plan.jobs.push(job);
  }
  plan.jobs = uniqueJobs(plan.jobs, reportTo(plan, target));
  return plan;
}

export function hasFilters(filters: QueryFilterParams): boolean {
  return Object.keys(filters).length > 0;
}

/** A listing's jobs at once (download --dry-run), as streamListingJobs gives them to the run. */
export async function planFromListing(api: ApiClient, filters: QueryFilterParams, target: PlanTarget, options: { max?: number }): Promise<DownloadPlan> {
  const plan = emptyPlan();
  // Not push(...jobs): a page of 150,000 would overflow the argument list.
  for await (const jobs of streamListingJobs(api, filters, target, options, plan)) for (const job of jobs) plan.jobs.push(job);
  return plan;
}

/**
 * A listing's jobs page by page, as the pages arrive: memory grows with a page, not the listing, and
 * downloads start with the first page. `plan` is filled as it goes (its `jobs` stay empty). Folders stay
 * distinct across pages, and the order is stable, so a rerun finds the same files.
 */
export async function* streamListingJobs(
  api: ApiClient,
  filters: QueryFilterParams,
  target: PlanTarget,
  options: { max?: number },
  plan: DownloadPlan,
): AsyncGenerator<MediaJob[], void> {
  const limit = options.max !== undefined ? Math.min(options.max, LIMIT_MAX) : LIMIT_MAX;
  const useQuery = hasFilters(filters);
  const pages = paginatePages(
    (cursor) => {
      plan.requests++;
      const params = { limit, ...cursor, ...(target.lang ? { lang: target.lang } : {}) };
      return useQuery ? api.query({ ...filters, ...params }) : api.exerciseIds(params);
    },
    { limit, ...(options.max !== undefined ? { max: options.max } : {}), onIncomplete: (p) => (plan.incomplete = p) },
  );
  const claims = newPathClaims();
  for await (const summaries of pages) {
    const found = summaries.flatMap((summary) => exerciseJobs(plan, api, target, summary.id, summary));
    const jobs = uniqueJobs(found, reportTo(plan, target), claims);
    if (jobs.length > 0) yield jobs;
  }
}

export interface DryRunRow {
  /** `resume`: a `.part` an earlier run left is continued (one request all the same). */
  action: 'fetch' | 'resume' | 'skip';
  job: MediaJob;
}

/**
 * What a run would do with each job, from the disk alone. Each folder is listed once, and only when
 * its parent lists it: a plan of 150,000 files into a new directory costs one look, not a stat each.
 */
export async function dryRunRows(plan: DownloadPlan, skipExisting: boolean): Promise<DryRunRow[]> {
  const listings = new Map<string, Promise<Set<string>>>();
  const namesIn = (folder: string): Promise<Set<string>> => {
    let names = listings.get(folder);
    if (!names)
      listings.set(
        folder,
        (names = readdir(folder).then(
          (found) => new Set(found),
          () => new Set<string>(),
        )),
      );
    return names;
  };
  /** Whether `path`, below the output directory `dir`, is there: every folder on the way listed once. */
  const present = async (dir: string, path: string): Promise<boolean> => {
    const parent = dirname(path);
    const above = parent === dir || parent === path || (await present(dir, parent));
    return above && (await namesIn(parent)).has(basename(path));
  };
  const rows: DryRunRow[] = [];
  for (const job of plan.jobs) {
    const dir = resolve(job.dir);
    const complete = skipExisting && (await present(dir, job.path)) && (await looksComplete(job.kind, job.path));
    const resumed = !complete && (await present(dir, partPath(job.path))) && partBytes(job.path) !== undefined;
    rows.push({ action: complete ? 'skip' : resumed ? 'resume' : 'fetch', job });
  }
  return rows;
}
