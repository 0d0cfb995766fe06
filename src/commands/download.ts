/**
 * `exercises download [ids...]`: the premium media of many exercises, for ids from the
 * arguments, from stdin (`-`), or from the query filters / --all. Given ids cost one record
 * request each; a listing costs its pages only, the media lists being read from its summaries
 * (spec §2.2), with no per-id fallback (media/plan.ts says why). Then a bounded pool of
 * streamed, verified, resumable downloads. The dry run's listing is
 * shared/download-dry-run.ts's, the page-by-page download of a listing
 * shared/download-listing.ts's.
 */
import type { Context } from '../context.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY, MAX_DOWNLOAD_CONCURRENCY } from '../defaults.js';
import { langInForce } from '../config/settings.js';
import { PartialFailureError, UsageError } from '../errors.js';
import type { MediaKind } from '../catalogue/media.js';
import { type UnusableEntry, describeUnusable } from '../media/jobs.js';
import { type DownloadPlan, hasFilters, planFromIds, planFromListing } from '../media/plan.js';
import type { BulkSummary } from '../media/bulk.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, addNotes } from './shared/help.js';
import { outputDir, reportSummary, runMediaJobs } from './shared/media-run.js';
import { type QueryFilterParams, addQueryFilterOptions, queryParamsFromOptions } from './shared/query-filters.js';
import { assertNoEmptyIds, noIdsOnStdin, requestedIds } from './shared/requested-ids.js';
import { intArg } from './shared/flags.js';
import { printDryRun } from './shared/download-dry-run.js';
import { writeNotice } from '../output/notice.js';
import { downloadListing } from './shared/download-listing.js';
import { plural, someOf } from '../util/text.js';

export interface DownloadOptions {
  /** Ids or names as given (`-` for stdin); empty when the exercises come from a listing. */
  ids: string[];
  /** Query filters for a listing; {} with ids or --all. */
  filters: QueryFilterParams;
  /** A listing of the whole catalogue. */
  all: boolean;
  /** With a listing: at most this many exercises. */
  max?: number;
  kinds: MediaKind[];
  /** The folder files go into, resolved. */
  dir: string;
  /** `--dir` as typed, so printed paths stay relative when it was (output/shown-path.ts). */
  dirGiven?: string;
  concurrency: number;
  skipExisting: boolean;
  dryRun: boolean;
  failFast: boolean;
}

/** The flags as commander parsed them (the query filters included). */
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

function kindsFrom(flags: DownloadFlags): MediaKind[] {
  if (flags.images && !flags.videos) return ['image'];
  if (flags.videos && !flags.images) return ['video'];
  return ['image', 'video'];
}

/** Checks the arguments and flags (usage errors, before any request) and builds the options. */
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
    kinds: kindsFrom(flags),
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

  let plan: DownloadPlan;
  /** Set when the files were downloaded page by page, as the listing arrived. */
  let streamed: BulkSummary | undefined;
  if (options.ids.length > 0) {
    plan = await planFromIds(api, requestedIds(options.ids, ctx.io, ctx.globals.quiet), target, {
      // Record requests are small: at least the default pool, however low --concurrency is.
      concurrency: Math.max(options.concurrency, DEFAULT_DOWNLOAD_CONCURRENCY),
      onMissing: (id) => ctx.io.stderr.write(`Not found: ${id}\n`),
    });
    // `download -` with nothing on stdin means what `show -` does: a usage error, not an empty success.
    if (options.ids.every((a) => a === '-') && plan.exercises === 0 && plan.missing.length === 0) throw noIdsOnStdin();
  } else if (options.dryRun) {
    plan = await planFromListing(api, options.filters, target, options.max !== undefined ? { max: options.max } : {});
  } else {
    ({ plan, summary: streamed } = await downloadListing(ctx, api, options, target));
  }

  if (plan.exercises > 0 && plan.withMedia === 0 && !ctx.globals.quiet) {
    const what = kinds.length === 2 ? 'images or videos' : kinds[0] === 'image' ? 'images' : 'videos';
    // Only records without the premium fields at all point at the plan; empty lists are just empty.
    const why = plan.withMediaFields === 0 ? " (a free plan's records never carry them)" : '';
    writeNotice(ctx.io, `None of the ${plural(plan.exercises, 'exercise')} lists premium ${what}${why}.`);
  }

  if (options.dryRun) {
    await printDryRun(ctx, plan, options.skipExisting, options.dirGiven);
  } else {
    const summary =
      streamed ??
      (await runMediaJobs(ctx, api, plan.jobs, { concurrency: options.concurrency, skipExisting: options.skipExisting, failFast: options.failFast }));
    await reportSummary(ctx, summary, options.dirGiven).catch((err: unknown) => {
      // Failed files and a listing cut short: one exit 7 that says both.
      if (!plan.incomplete) throw err;
    });
  }
  const problems: string[] = [];
  if (plan.incomplete)
    problems.push(`the listing stopped early (${plan.incomplete.message}); the media of the ${plural(plan.exercises, 'exercise')} before that were handled`);
  if (plan.missing.length > 0) {
    problems.push(`${plural(plan.missing.length, 'exercise')} ${plan.missing.length === 1 ? 'was' : 'were'} not found: ${someOf(plan.missing)}`);
  }
  if (plan.unusable.length > 0) {
    problems.push(`${plural(plan.unusable.length, 'media entry', 'media entries')} listed by the service could not be fetched (named above)`);
  }
  if (problems.length > 0) throw new PartialFailureError(`${problems.join('; ')}.`);
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
  cmd.action(async (ids: string[], flags: DownloadFlags) => {
    const ctx = context();
    await runF(await downloadOptions(ids, flags), ctx);
  });
};
