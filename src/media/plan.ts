/**
 * Planning a bulk download: which media files to fetch, found with as few catalogue requests
 * as possible. From given ids: one record request each, a few at a time. From a listing
 * (query filters or --all): the list pages only, the media read from the summaries, with no
 * record request per exercise and no fallback to records. Spec §2.2 puts premiumImages /
 * premiumVideos in summaries whenever the plan allows them, so a summary without them means
 * a plan without media, and asking for every record would spend a request per exercise to
 * learn the same; the command's notice ("None of the N exercises lists premium ...") covers
 * that free-plan case.
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
import { partBytes } from './download/file-sink.js';

/** What planning found: the jobs, the ids that were not found, and the catalogue requests spent. */
export interface DownloadPlan {
  jobs: MediaJob[];
  missing: string[];
  /**
   * Entries no URL can fetch (a record whose id is "." or "..", say), and jobs that could not
   * have a path of their own (uniqueJobs; only a hash collision does that). They make no job, so
   * they are not in the run's summary: like a missing id, each is reported as it is found
   * and makes the run exit 7, while every other file is still fetched.
   */
  unusable: UnusableEntry[];
  /** Exercises looked at, and how many of them list any media of the kinds asked. */
  exercises: number;
  withMedia: number;
  /** How many records carry the premium fields at all, even empty (a free plan's never do). */
  withMediaFields: number;
  /** Catalogue (JSON) requests made while planning. */
  requests: number;
  /** Why the listing stopped before its end (a loop, no cursor, fewer than `total`, never ending), when it did. */
  incomplete?: ListingProblem;
}

export interface PlanTarget {
  kinds: readonly MediaKind[];
  /** The output directory. */
  dir: string;
  lang?: string;
  /** Told of each entry left out because no URL can fetch it (see DownloadPlan.unusable). */
  onUnusable?: (unusable: UnusableEntry) => void;
}

/** Keeps an entry left out (no URL can fetch it, or no path of its own) in the plan and tells the target. */
function reportTo(plan: DownloadPlan, target: PlanTarget): (unusable: UnusableEntry) => void {
  return (unusable) => {
    plan.unusable.push(unusable);
    target.onUnusable?.(unusable);
  };
}

export function emptyPlan(): DownloadPlan {
  return { jobs: [], missing: [], unusable: [], exercises: 0, withMedia: 0, withMediaFields: 0, requests: 0 };
}

/**
 * Counts an exercise in the plan and returns the jobs of its media, without their paths: those
 * are given once the whole plan or page is in (uniqueJobs; a job that cannot have one is
 * reported like an unusable entry).
 */
function exerciseJobs(plan: DownloadPlan, api: ApiClient, target: PlanTarget, exerciseId: string, record: MediaLists): MediaJob[] {
  const unusableBefore = plan.unusable.length;
  const jobs = recordJobs(api, target.dir, exerciseId, record, target.kinds, reportTo(plan, target));
  plan.exercises++;
  if (jobs.length > 0 || plan.unusable.length > unusableBefore) plan.withMedia++;
  if (hasMediaFields(record, target.kinds)) plan.withMediaFields++;
  return jobs;
}

/** Yields each id once, skipping blanks: a repeated id costs no second request. */
async function* distinct(ids: AsyncIterable<string>): AsyncIterable<string> {
  const seen = new Set<string>();
  for await (const id of ids) {
    if (id.trim() === '' || seen.has(id)) continue;
    seen.add(id);
    yield id;
  }
}

/**
 * One record request per distinct id, `concurrency` at a time, jobs kept in input order.
 * A missing id is recorded (and reported through `onMissing`); any other failure stops planning.
 */
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

/** Whether any query filter was given: /exercise/query then, else /exercise/exerciseIds. */
export function hasFilters(filters: QueryFilterParams): boolean {
  return Object.keys(filters).length > 0;
}

/**
 * A listing's jobs all at once (download --dry-run): the pages and folders streamListingJobs
 * gives the run itself, so the dry run shows what the run will do.
 */
export async function planFromListing(api: ApiClient, filters: QueryFilterParams, target: PlanTarget, options: { max?: number }): Promise<DownloadPlan> {
  const plan = emptyPlan();
  // One by one, not push(...jobs): a page of 150,000 summaries would overflow the argument list.
  for await (const jobs of streamListingJobs(api, filters, target, options, plan)) for (const job of jobs) plan.jobs.push(job);
  return plan;
}

/**
 * The jobs of a listing page by page, as the pages arrive (download --all, filters), from
 * /exercise/query (with filters) or /exercise/exerciseIds (without), whose summaries carry the
 * media lists: memory grows with one page (and a claim per file's path), not with the listing's
 * records, and downloads start with the first page. `plan`
 * is filled as it goes (counts, requests, unusable entries, why the listing stopped early);
 * its `jobs` stay empty. Folders are kept distinct across pages: an id whose folder another id
 * already took (`plank` after `Plank`) gets one with a hash (uniqueJobs); the listing order is
 * stable, so a rerun finds the same files.
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
  // Folders and names stay distinct across pages: what a page gave out stays its own.
  const claims = newPathClaims();
  for await (const summaries of pages) {
    const found = summaries.flatMap((summary) => exerciseJobs(plan, api, target, summary.id, summary));
    const jobs = uniqueJobs(found, reportTo(plan, target), claims);
    if (jobs.length > 0) yield jobs;
  }
}

export interface DryRunRow {
  /** `resume`: a `.part` an earlier run left is continued from its last byte (a fetch all the same: one request). */
  action: 'fetch' | 'resume' | 'skip';
  job: MediaJob;
}

/** What a run would do with each job: skip-existing looks at the disk only, never the network. */
export async function dryRunRows(plan: DownloadPlan, skipExisting: boolean): Promise<DryRunRow[]> {
  const rows: DryRunRow[] = [];
  for (const job of plan.jobs) {
    const action = skipExisting && (await looksComplete(job.kind, job.path)) ? 'skip' : partBytes(job.path) !== undefined ? 'resume' : 'fetch';
    rows.push({ action, job });
  }
  return rows;
}
