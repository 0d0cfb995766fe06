/**
 * `exercises download [ids...]`: the premium media of many exercises, for ids from the
 * arguments, from stdin (`-`), or from the query filters / --all. Records come from the
 * listing when its summaries carry premiumImages/premiumVideos (no request per id), else
 * one record request per id. Then a bounded pool of streamed, verified, resumable downloads.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../api/client.js';
import type { ExerciseSummary } from '../catalogue/types.js';
import { type Context, outputFormat } from '../context.js';
import { NotFoundError, PartialFailureError, UsageError } from '../errors.js';
import type { MediaJob } from '../media/jobs.js';
import type { MediaKind } from '../media/media-names.js';
import type { RegisterCommand } from './index.js';
import { addExamples } from './shared/help.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, outputDir, reportSummary, runMediaJobs } from './shared/media-run.js';
import { addQueryFilterOptions } from './shared/query-filters.js';
import { intArg } from './shared/values.js';

export interface DownloadOptions {
  images?: boolean;
  videos?: boolean;
  dir?: string;
  concurrency: number;
  skipExisting: boolean;
  dryRun?: boolean;
  failFast?: boolean;
  all?: boolean;
  max?: number;
  [filter: string]: unknown;
}

/** What planning found: the jobs, the ids that were not found, and the catalogue requests spent. */
interface Plan {
  jobs: MediaJob[];
  missing: string[];
  exercises: number;
  withMedia: number;
  requests: number;
}

function kindsFrom(opts: DownloadOptions): MediaKind[] {
  if (opts.images && !opts.videos) return ['image'];
  if (opts.videos && !opts.images) return ['video'];
  return ['image', 'video'];
}

function hasFilters(filters: object): boolean {
  return Object.keys(filters).length > 0;
}

/** Ids from the arguments, `-` meaning stdin (read once). */
async function* idsFromArgs(args: string[], ctx: Context): AsyncIterable<string> {
  const { readIds } = await import('./shared/read-ids.js');
  let stdinUsed = false;
  for (const arg of args) {
    if (arg !== '-') yield arg;
    else if (!stdinUsed) {
      stdinUsed = true;
      yield* readIds(ctx.io.stdin);
    }
  }
}

/** One record request per id, at most `concurrency` at once, jobs kept in input order. */
async function planFromIds(ctx: Context, api: ApiClient, ids: AsyncIterable<string>, kinds: MediaKind[], dir: string, concurrency: number): Promise<Plan> {
  const { jobsForRecord } = await import('../media/jobs.js');
  const { resolvedLang } = await import('../api/from-context.js');
  const { isFatal } = await import('../media/bulk.js');
  const lang = await resolvedLang(ctx);
  const plan: Plan = { jobs: [], missing: [], exercises: 0, withMedia: 0, requests: 0 };
  const seen = new Set<string>();
  const window: Array<Promise<{ id: string; jobs?: MediaJob[]; error?: unknown }>> = [];
  const settle = async (): Promise<void> => {
    const { id, jobs, error } = await window.shift()!;
    if (error !== undefined) {
      if (isFatal(error) || !(error instanceof NotFoundError)) throw error;
      plan.missing.push(id);
      ctx.io.stderr.write(`Not found: ${id}\n`);
      return;
    }
    plan.exercises++;
    if (jobs!.length > 0) plan.withMedia++;
    plan.jobs.push(...jobs!);
  };
  for await (const id of ids) {
    if (id.trim() === '' || seen.has(id)) continue;
    seen.add(id);
    plan.requests++;
    window.push(
      api.getExercise(id, lang ? { lang } : {}).then(
        (record) => ({ id, jobs: jobsForRecord(api, dir, record.id ?? id, record, kinds) }),
        (error: unknown) => ({ id, error }),
      ),
    );
    if (window.length >= concurrency) await settle();
  }
  while (window.length > 0) await settle();
  return plan;
}

/** Pages through /exercise/query (filters) or /exercise/exerciseIds (--all); the summaries carry the media lists. */
async function planFromListing(ctx: Context, api: ApiClient, filters: object, opts: DownloadOptions, kinds: MediaKind[], dir: string): Promise<Plan> {
  const { paginate } = await import('../api/paging.js');
  const { jobsForRecord } = await import('../media/jobs.js');
  const { resolvedLang } = await import('../api/from-context.js');
  const { LIMIT_MAX } = await import('../catalogue/enums.js');
  const lang = await resolvedLang(ctx);
  const plan: Plan = { jobs: [], missing: [], exercises: 0, withMedia: 0, requests: 0 };
  const limit = opts.max !== undefined ? Math.min(opts.max, LIMIT_MAX) : LIMIT_MAX;
  const useQuery = hasFilters(filters);
  const pages = paginate(
    (cursor) => {
      plan.requests++;
      const params = { limit, ...cursor, ...(lang ? { lang } : {}) };
      return useQuery ? api.query({ ...filters, ...params }) : api.exerciseIds(params);
    },
    { limit, ...(opts.max !== undefined ? { max: opts.max } : {}) },
  );
  for await (const summary of pages as AsyncIterable<ExerciseSummary>) {
    plan.exercises++;
    const jobs = jobsForRecord(api, dir, summary.id, summary, kinds);
    if (jobs.length > 0) plan.withMedia++;
    plan.jobs.push(...jobs);
  }
  return plan;
}

async function dryRun(ctx: Context, plan: Plan, skipExisting: boolean): Promise<void> {
  const { looksComplete } = await import('../media/verify.js');
  const rows: Array<{ action: 'fetch' | 'skip'; job: MediaJob }> = [];
  for (const job of plan.jobs) rows.push({ action: skipExisting && (await looksComplete(job.kind, job.path)) ? 'skip' : 'fetch', job });
  const toFetch = rows.filter((r) => r.action === 'fetch').length;
  if (outputFormat(ctx) === 'json') {
    const files = rows.map((r) => ({ action: r.action, id: r.job.exerciseId, kind: r.job.kind, name: r.job.name, url: r.job.url.href, path: r.job.path }));
    ctx.io.stdout.write(`${JSON.stringify({ dryRun: true, mediaRequests: toFetch, catalogueRequests: plan.requests, files })}\n`);
  } else {
    const { tsvLine } = await import('../output/delimited.js');
    for (const r of rows) ctx.io.stdout.write(tsvLine([r.action, r.job.exerciseId, r.job.kind, r.job.name, r.job.path]));
  }
  ctx.io.stderr.write(
    `Dry run: would fetch ${toFetch} file${toFetch === 1 ? '' : 's'} with ${toFetch} media request${toFetch === 1 ? '' : 's'}; ` +
      `${rows.length - toFetch} already present would be skipped; ${plan.requests} catalogue request${plan.requests === 1 ? ' was' : 's were'} made to list them.\n`,
  );
}

export async function run(args: string[], opts: DownloadOptions, ctx: Context): Promise<void> {
  const { queryParamsFromOptions } = await import('./shared/query-filters.js');
  const filters = queryParamsFromOptions(opts);
  if (args.some((a) => a.trim() === '')) throw new UsageError('An exercise id or name cannot be empty.');
  if (args.length > 0 && (hasFilters(filters) || opts.all)) {
    throw new UsageError('Give either exercise ids (or - for stdin) or query filters / --all, not both.');
  }
  if (args.length === 0 && !hasFilters(filters) && !opts.all) {
    throw new UsageError('Say which exercises: ids as arguments, - to read them from stdin, query filters such as --muscle chest, or --all.', {
      hint: 'Add --dry-run first to see what it would fetch and how many requests it would spend.',
    });
  }
  const kinds = kindsFrom(opts);
  const dir = outputDir(opts.dir);
  const { apiFromContext } = await import('../api/from-context.js');
  const { uniqueJobs } = await import('../media/jobs.js');
  const api = await apiFromContext(ctx);

  const plan = args.length > 0
    ? await planFromIds(ctx, api, idsFromArgs(args, ctx), kinds, dir, Math.max(opts.concurrency, DEFAULT_CONCURRENCY))
    : await planFromListing(ctx, api, filters, opts, kinds, dir);
  plan.jobs = uniqueJobs(plan.jobs);

  if (plan.exercises > 0 && plan.withMedia === 0 && !ctx.globals.quiet) {
    const what = kinds.length === 2 ? 'images or videos' : kinds[0] === 'image' ? 'images' : 'videos';
    ctx.io.stderr.write(`None of the ${plan.exercises} exercise${plan.exercises === 1 ? '' : 's'} lists premium ${what} (a free plan's records never carry them).\n`);
  }

  if (opts.dryRun) {
    await dryRun(ctx, plan, opts.skipExisting);
  } else {
    const summary = await runMediaJobs(ctx, api, plan.jobs, {
      concurrency: opts.concurrency,
      skipExisting: opts.skipExisting,
      failFast: opts.failFast === true,
    });
    await reportSummary(ctx, summary);
  }
  if (plan.missing.length > 0) {
    throw new PartialFailureError(`${plan.missing.length} exercise${plan.missing.length === 1 ? ' was' : 's were'} not found: ${plan.missing.slice(0, 5).join(', ')}${plan.missing.length > 5 ? ', …' : ''}.`);
  }
}

const BULK_SCRIPT = `
A bulk script (nightly, resumable: complete files cost no request, partial ones resume):
  #!/bin/sh
  dir=/srv/exercise-media
  exercises download --all --dir "$dir" --concurrency 8 --quiet --json > "$dir/last-run.json"
  case $? in
    0) ;;
    7) echo "some files failed (see $dir/last-run.json); the next run retries them" >&2 ;;
    *) exit 1 ;;
  esac
`;

export const register: RegisterCommand = (program: Command, context: () => Context) => {
  const cmd = program
    .command('download [ids...]')
    .description('download the premium images and videos of many exercises (ids, - for stdin, query filters or --all)')
    .option('--images', 'images only (default: images and videos)')
    .option('--videos', 'videos only (default: images and videos)')
    .option('--dir <dir>', 'folder to save into, as <dir>/<id>/<name>.png|.mp4 (default: the current directory)')
    .option('--concurrency <n>', `files downloaded at once, 1-${MAX_CONCURRENCY}`, intArg('--concurrency', 1, MAX_CONCURRENCY), DEFAULT_CONCURRENCY)
    .option('--skip-existing', 'skip files already complete on disk, with no request (default)', true)
    .option('--no-skip-existing', 'download again and overwrite files already present')
    .option('--dry-run', 'list what would be fetched and the requests it would spend; fetch no media')
    .option('--fail-fast', 'stop at the first failed file (default: carry on, report failures at the end)')
    .option('--all', 'every exercise of the catalogue (no filters needed)')
    .option('--max <n>', 'with filters or --all: at most this many exercises', intArg('--max', 1));
  addQueryFilterOptions(cmd);
  addExamples(
    cmd,
    [
      'exercises download Barbell_Bench_Press Plank --dir media',
      'exercises download --muscle chest --equipment barbell --dir media --dry-run',
      'exercises download --all --videos --dir media --concurrency 8',
      'exercises --sandbox download --all --dir /tmp/media',
    ],
    [
      'exercises ids --all --format jsonl | exercises download - --dir media',
      'exercises query --muscle chest --all --format jsonl | jq -r .id | exercises download - --images --dir media',
      'exercises download --level beginner --dir media --json > summary.json || echo "exit $?"',
    ],
  );
  cmd.addHelpText('after', BULK_SCRIPT);
  cmd.action(async (args: string[], opts: DownloadOptions) => run(args, opts, context()));
};
