/** What `image`, `video` and `download` share: the output directory, media jobs run through the bulk engine, the summary. */
import { resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { type Context, outputFormat, verboseLog } from '../../context.js';
import { CliError } from '../../errors.js';
import { oneLine } from '../../util/text.js';
import { type BulkSummary, type JobSource, runBulk } from '../../media/bulk.js';
import { partialFailure, summaryJson, summaryLines } from '../../media/bulk-summary.js';
import { type DownloadOptions, type MediaSource, downloadFile, localWriteError } from '../../media/download-file.js';
import { jobDirPreparer } from '../../media/jobs.js';
import { createProgress } from '../../output/progress-meter.js';
import { RateLimit, mediaMinRate } from '../../media/download/rate-limit.js';
import { writeNotice } from '../../output/notice.js';
import { shownPath } from '../../output/shown-path.js';

export function outputDir(dir: unknown): string {
  return resolve(typeof dir === 'string' && dir !== '' ? dir : '.');
}

/** The command's one bandwidth budget (--limit-rate), shared by every pool and file. */
const rateLimits = new WeakMap<Context, RateLimit | null>();

/**
 * What every download of the command shares: the transport, settings, Ctrl-C, who serves the media,
 * the --limit-rate budget and the least rate each of `streams` downloads must keep, and where the
 * downloader's lines go (notices unless --quiet, so a wait is never silent).
 */
export async function downloadSettings(ctx: Context, api: ApiClient, streams: number): Promise<DownloadOptions> {
  const settings = ctx.settings();
  let limit = rateLimits.get(ctx);
  if (limit === undefined) {
    limit = settings.limitRate ? new RateLimit(settings.limitRate) : null;
    rateLimits.set(ctx, limit);
  }
  const conn = await ctx.connection();
  const log = verboseLog(ctx);
  const source: MediaSource = conn.catalogue !== undefined ? { kind: 'catalogue', dir: conn.catalogue } : { kind: conn.local === true ? 'sample' : 'service' };
  return {
    transport: await api.http(),
    settings,
    signal: ctx.signal,
    source,
    ...(limit === null ? {} : { rateLimit: limit, minBytesPerSecond: mediaMinRate(limit, streams) }),
    ...(log ? { log } : {}),
    ...(ctx.globals.quiet ? {} : { notice: (line: string) => writeNotice(ctx.io, line) }),
  };
}

/** Downloads the jobs (at once, or as a listing's pages arrive) with one bounded pool; a progress bar on a terminal. */
export async function runMediaJobs(
  ctx: Context,
  api: ApiClient,
  jobs: JobSource,
  options: { concurrency: number; skipExisting: boolean; failFast: boolean },
): Promise<BulkSummary> {
  // Made at the first file that really downloads: a run whose files are all in place needs no HTTP client.
  let shared: Promise<DownloadOptions> | undefined;
  const none = Array.isArray(jobs) && jobs.length === 0;
  const showProgress = ctx.io.stderrIsTTY && !ctx.globals.quiet && !ctx.globals.verbose && !none;
  const progress = showProgress ? await createProgress(ctx.io.stderr) : undefined;
  const prepareJobDir = jobDirPreparer();
  return runBulk(jobs, {
    ...options,
    signal: ctx.signal,
    ...(progress ? { progress } : {}),
    download: async (job, file, signal, requestSlot) => {
      await prepareJobDir(job).catch((err: unknown) => {
        throw err instanceof CliError ? err : localWriteError(err, job);
      });
      const settings = await (shared ??= downloadSettings(ctx, api, options.concurrency));
      const skipComplete = options.skipExisting;
      return downloadFile(job, job.path, { ...settings, signal, onStart: file.started, onBytes: file.bytes, requestSlot, skipComplete });
    },
  });
}

/** The summary: on stderr for people, as JSON with --format json; exit 7 when some files failed. */
export async function reportSummary(ctx: Context, summary: BulkSummary, dirGiven?: string): Promise<void> {
  const lines = summaryLines(summary);
  // The output folder, as --dir was typed.
  const dir = summary.outcomes.find((o) => o.status !== 'failed')?.job.dir;
  const where = dir !== undefined && dirGiven !== undefined ? shownPath(dir, dirGiven) : dir;
  if (where !== undefined && lines.length > 0) lines[0] = lines[0]!.replace(/\.$/, `; files in ${oneLine(where)}.`);
  const shown = ctx.globals.quiet ? lines.filter((l) => l.startsWith('  failed:')) : lines;
  for (const line of shown) writeNotice(ctx.io, line, line.startsWith('  ') ? { indent: 2, hanging: 4 } : {});
  if (outputFormat(ctx) === 'json') ctx.io.stdout.write(`${JSON.stringify(summaryJson(summary))}\n`);
  if (summary.failed > 0) throw partialFailure(summary);
}
