/**
 * `exercises download [ids...]`: the premium media of many exercises, for ids given, from stdin or
 * from a listing (whose summaries carry the media lists: no request per id). A bounded pool of
 * streamed, verified, resumable downloads, started as the listing's pages arrive.
 */
import { type Context, outputFormat } from '../context.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY, MAX_DOWNLOAD_CONCURRENCY } from '../defaults.js';
import { langInForce } from '../config/settings.js';
import { PartialFailureError, UsageError } from '../errors.js';
import type { MediaKind } from '../catalogue/media.js';
import { type UnusableEntry, describeUnusable } from '../media/jobs.js';
import { type DownloadPlan, type DryRunRow, dryRunRows, emptyPlan, hasFilters, planFromIds, planFromListing, streamListingJobs } from '../media/plan.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, addNotes } from './shared/help.js';
import { outputDir, reportSummary, runMediaJobs } from './shared/media-run.js';
import { type QueryFilterParams, addQueryFilterOptions, queryParamsFromOptions } from './shared/query-filters.js';
import { assertNoEmptyIds, noIdsOnStdin, requestedIds } from './shared/requested-ids.js';
import { intArg } from './shared/flags.js';
import { writeNotice } from '../output/notice.js';
import { alignedRows } from '../output/aligned.js';
import { tsvLine } from '../output/fields.js';
import { shownPath } from '../output/shown-path.js';
import { plural, someOf } from '../util/text.js';

export interface DownloadOptions {
  /** Ids or names as given (`-` for stdin); empty when the exercises come from a listing. */
  ids: string[];
  /** Query filters for a listing; {} with ids or --all. */
  filters: QueryFilterParams;
  all: boolean;
  max?: number;
  kinds: MediaKind[];
  dir: string;
  /** `--dir` as typed, so printed paths stay relative when it was. */
  dirGiven?: string;
  concurrency: number;
  skipExisting: boolean;
  dryRun: boolean;
  failFast: boolean;
}

export interface DownloadFlags {
  images?: boolean;
  videos?: boolean;
  dir?: string;
  concurrency: number;
  overwrite?: boolean;
  dryRun?: boolean;
  failFast?: boolean;
  all?: boolean;
  max?: number;
  [filter: string]: unknown;
}

/** Checks the arguments and flags (usage errors, before any request). */
export async function downloadOptions(ids: string[], flags: DownloadFlags): Promise<DownloadOptions> {
  const filters = queryParamsFromOptions(flags);
  assertNoEmptyIds(ids);
  const listing = hasFilters(filters) || flags.all === true;
  if (ids.length > 0 && listing) {
    throw new UsageError('Give either exercise ids (or - for stdin) or query filters / --all, not both.');
  }
  if (ids.length === 0 && !listing) {
    throw new UsageError('Say which exercises: ids as arguments, - to read them from stdin, query filters such as --muscle chest, or --all.', {
      hint: 'Add --dry-run first to see what it would fetch and how many requests it would spend.',
    });
  }
  return {
    ids: [...ids],
    filters,
    all: flags.all === true,
    ...(flags.max !== undefined ? { max: flags.max } : {}),
    kinds: !flags.images === !flags.videos ? ['image', 'video'] : flags.images ? ['image'] : ['video'],
    dir: outputDir(flags.dir),
    ...(flags.dir !== undefined ? { dirGiven: flags.dir } : {}),
    concurrency: flags.concurrency,
    skipExisting: flags.overwrite !== true,
    dryRun: flags.dryRun === true,
    failFast: flags.failFast === true,
  };
}

export async function run(options: DownloadOptions, ctx: Context): Promise<void> {
  const { kinds, dir } = options;
  const api = await ctx.api();
  const lang = langInForce(ctx.settings());
  const target = {
    kinds,
    dir,
    ...(lang ? { lang } : {}),
    // A failure, so shown even with --quiet, like a missing id.
    onUnusable: (u: UnusableEntry) => writeNotice(ctx.io, `Skipped: ${describeUnusable(u)}`),
  };

  const cap = options.max !== undefined ? { max: options.max } : {};
  const pool = { concurrency: options.concurrency, skipExisting: options.skipExisting, failFast: options.failFast };
  let plan: DownloadPlan = emptyPlan();
  let streamed;
  if (options.ids.length > 0) {
    plan = await planFromIds(api, requestedIds(options.ids, ctx.io, ctx.globals.quiet), target, {
      // Record requests are small: at least the default pool.
      concurrency: Math.max(options.concurrency, DEFAULT_DOWNLOAD_CONCURRENCY),
      onMissing: (id) => ctx.io.stderr.write(`Not found: ${id}\n`),
    });
    // `download -` with nothing on stdin means what `show -` does: a usage error, not an empty success.
    if (options.ids.every((a) => a === '-') && plan.exercises === 0 && plan.missing.length === 0) throw noIdsOnStdin();
  } else if (options.dryRun) {
    plan = await planFromListing(api, options.filters, target, cap);
  } else {
    // One pool fed as the listing's pages arrive: files start while the next page is asked for, and about two pages of jobs are held.
    streamed = await runMediaJobs(ctx, api, streamListingJobs(api, options.filters, target, cap, plan), pool);
  }

  if (plan.exercises > 0 && plan.withMedia === 0 && !ctx.globals.quiet) {
    const what = kinds.length === 2 ? 'images or videos' : kinds[0] === 'image' ? 'images' : 'videos';
    const why = plan.withMediaFields === 0 ? " (a free plan's records never carry them)" : '';
    writeNotice(ctx.io, `None of the ${plural(plan.exercises, 'exercise')} lists premium ${what}${why}.`);
  }

  if (options.dryRun) {
    await printDryRun(ctx, plan, options.skipExisting, options.dirGiven);
  } else {
    await reportSummary(ctx, streamed ?? (await runMediaJobs(ctx, api, plan.jobs, pool)), options.dirGiven).catch((err: unknown) => {
      // Failed files and a listing cut short: one exit 7 that says both.
      if (!plan.incomplete) throw err;
    });
  }
  const problems = [
    plan.incomplete &&
      `the listing stopped early (${plan.incomplete.message}); the media of the ${plural(plan.exercises, 'exercise')} before that were handled`,
    plan.missing.length > 0 && `${plural(plan.missing.length, 'exercise')} ${plan.missing.length === 1 ? 'was' : 'were'} not found: ${someOf(plan.missing)}`,
    plan.unusable.length > 0 && `${plural(plan.unusable.length, 'media entry', 'media entries')} listed by the service could not be fetched (named above)`,
  ].filter(Boolean);
  if (problems.length > 0) throw new PartialFailureError(`${problems.join('; ')}.`);
}

/**
 * `--dry-run`: a row per file to fetch, resume or skip (JSON paths absolute, other formats as `--dir` was
 * typed), and on stderr the requests it would spend. Its answers went through the cache: the run after plans for free.
 */
async function printDryRun(ctx: Context, plan: DownloadPlan, skipExisting: boolean, dirGiven?: string): Promise<void> {
  const rows = await dryRunRows(plan, skipExisting);
  const toFetch = rows.filter((r) => r.action !== 'skip').length;
  const toResume = rows.filter((r) => r.action === 'resume').length;
  const cells = (r: DryRunRow): string[] => [r.action, r.job.exerciseId, r.job.kind, r.job.name, shownPath(r.job.path, dirGiven)];
  if (outputFormat(ctx) === 'json') {
    const files = rows.map((r) => ({ action: r.action, id: r.job.exerciseId, kind: r.job.kind, name: r.job.name, url: r.job.url.href, path: r.job.path }));
    ctx.io.stdout.write(`${JSON.stringify({ dryRun: true, mediaRequests: toFetch, catalogueRequests: plan.requests, files })}\n`);
  } else if (outputFormat(ctx) === 'table') ctx.io.stdout.write(alignedRows(rows.map(cells)));
  else for (const r of rows) ctx.io.stdout.write(tsvLine(cells(r)));
  const resuming = toResume > 0 ? ` (${toResume} resumed from a .part)` : '';
  const saved = ctx.globals.cache && plan.requests > 0;
  writeNotice(
    ctx.io,
    `Dry run: would fetch ${plural(toFetch, 'file')}${resuming} with ${plural(toFetch, 'media request')}; ` +
      `${rows.length - toFetch} already present would be skipped; ${plural(plan.requests, 'catalogue request')} ${plan.requests === 1 ? 'was' : 'were'} made to list them` +
      (saved ? `, kept in the response cache: the run right after spends none on them (${plural(plan.requests, 'request')} saved).` : '.'),
  );
}

const BULK_SCRIPT = `
Nightly and resumable: complete files cost no request, partial ones resume.
  #!/bin/sh
  dir=/srv/exercise-media
  exercises download --all --dir "$dir" --concurrency 8 --quiet --json > "$dir/last-run.json"
  case $? in
    0) ;;
    7) echo "some failed: see $dir/last-run.json" >&2 ;;
    *) exit 1 ;;
  esac
`;

export const register: RegisterCommand<DownloadOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('download [ids...]')
    .description('download the premium images and videos of many exercises (ids, - for stdin, query filters or --all)')
    .option('--images', 'images only (default: images and videos)')
    .option('--videos', 'videos only (default: images and videos)')
    .option('--dir <dir>', 'folder to save into, as <dir>/<id>/<name>.png|.mp4 (default: the current directory)')
    .option(
      '--concurrency <n>',
      `files downloaded at once, 1-${MAX_DOWNLOAD_CONCURRENCY}`,
      intArg('--concurrency', 1, MAX_DOWNLOAD_CONCURRENCY),
      DEFAULT_DOWNLOAD_CONCURRENCY,
    )
    .option('--overwrite', 'download again and overwrite files already present (default: complete files are skipped, with no request)')
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
  addNotes(cmd, 'A BULK SCRIPT', BULK_SCRIPT);
  cmd.action(async (ids: string[], flags: DownloadFlags) => runF(await downloadOptions(ids, flags), context()));
};
