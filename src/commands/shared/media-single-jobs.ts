/**
 * `image`/`video`, steps two and three (media-single.ts runs them): the media jobs of one
 * exercise, then the jobs saved. With names, the jobs are built under the typed text (no record
 * request); without, from the record's premium fields, with entries no URL can fetch named on
 * stderr; `realId` resolves the text once when the service had no media under it (a name typed
 * instead of an id). `-o` writes the one file (with a byte meter on a terminal) or streams it to
 * stdout, a FIFO or a device; otherwise the jobs go through the bulk engine into
 * <dir>/<id>/<name>, named media probing first whether the typed text is the id.
 */
import { rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Context } from '../../context.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../defaults.js';
import { MEDIA, type MediaKind } from '../../catalogue/media.js';
import { type MediaJob, type UnusableEntry, describeUnusable, jobsForRecord, mediaJob, uniqueJobs } from '../../media/jobs.js';
import { AuthError, InterruptedError, NotFoundError, PartialFailureError, UsageError } from '../../errors.js';
import type { BulkSummary } from '../../media/bulk.js';
import { interruptedFile, mergeSummaries } from '../../media/bulk-summary.js';
import { downloadFile, downloadToStream } from '../../media/download-file.js';
import { type OutputTarget, abandonThrough, closeThrough, openThrough } from '../../media/output-target.js';
import { looksComplete } from '../../media/verify.js';
import { createFileMeter } from '../../output/progress-meter.js';
import { plural } from '../../util/text.js';
import type { ApiClient } from '../../api/client.js';
import { writeNotice } from '../../output/notice.js';
import { downloadMessages, mediaRetries, mediaSource, mediaThrottle, reportSummary, runMediaJobs } from './media-run.js';
import { langInForce } from '../../config/settings.js';
import { hasMediaFields } from '../../media/media-names.js';

export const PLURAL: Record<MediaKind, string> = { image: 'images', video: 'videos' };

export interface FoundJobs {
  jobs: MediaJob[];
  /** Entries of the record no URL can fetch: named on stderr, the others still fetched, exit 7. */
  unusable: UnusableEntry[];
  /** The named media's jobs under another id (the record's real one). */
  jobsFor(exerciseId: string): MediaJob[];
  /**
   * After a 404 for media named under the typed text: the record's id when the text is not it
   * (a name, say), else undefined. One record request; an unknown id or name throws NotFoundError.
   */
  realId(): Promise<string | undefined>;
}

export async function findJobs(ctx: Context, api: ApiClient, idOrName: string, options: { kind: MediaKind; names: string[]; dir: string }): Promise<FoundJobs> {
  const { kind, names, dir } = options;
  const jobsFor = (exerciseId: string): MediaJob[] => uniqueJobs(names.map((entry) => mediaJob(api, dir, exerciseId, kind, entry)));
  const realId = async (): Promise<string | undefined> => {
    if (names.length === 0) return undefined; // the jobs already came from the record
    const lang = langInForce(ctx.settings());
    const record = await api.getExercise(idOrName, lang ? { lang } : {});
    return record.id !== undefined && record.id !== idOrName ? record.id : undefined;
  };
  const unusable: UnusableEntry[] = [];
  if (names.length > 0) return { jobs: jobsFor(idOrName), unusable, jobsFor, realId };

  const lang = langInForce(ctx.settings());
  const record = await api.getExercise(idOrName, lang ? { lang } : {});
  const jobs = jobsForRecord(api, dir, record.id ?? idOrName, record, [kind], (u) => {
    unusable.push(u);
    writeNotice(ctx.io, `Skipped: ${describeUnusable(u)}`);
  });
  if (jobs.length === 0 && unusable.length === 0) {
    // No media field at all is the plan's answer (a free plan's records never carry them): exit 3, not "not found".
    if (!hasMediaFields(record, [kind])) {
      throw new AuthError(`Your plan does not include premium ${PLURAL[kind]}: the record of "${idOrName}" carries no ${MEDIA[kind].field}.`, {
        forbidden: true,
        hint: 'Premium media need a premium plan key (`exercises auth login`); `exercises auth status` shows the key in use.',
      });
    }
    throw new NotFoundError(`The exercise "${idOrName}" lists no premium ${PLURAL[kind]}.`, { hint: `\`exercises show ${idOrName}\` shows what it has.` });
  }
  return { jobs, unusable, jobsFor, realId };
}

/** `-o <file>` or `-o -`: exactly one file, under the typed text first, then under the record's id after a 404. */
export async function saveOne(
  ctx: Context,
  api: ApiClient,
  idOrName: string,
  options: { kind: MediaKind; overwrite: boolean },
  target: OutputTarget | undefined,
  { jobs, unusable, jobsFor, realId }: FoundJobs,
): Promise<void> {
  const { kind } = options;
  const listed = jobs.length + unusable.length;
  if (listed !== 1) {
    throw new UsageError(`-o takes exactly one ${kind}, and "${idOrName}" has ${listed}: ${jobs.map((j) => j.name).join(', ')}.`, {
      hint: `Name the one you want (\`exercises ${kind} ${idOrName} ${jobs[0]?.name ?? '<name>'} -o file\`), or use --dir for all of them.`,
    });
  }
  const common = {
    transport: await api.http(),
    retries: mediaRetries(ctx),
    signal: ctx.signal,
    source: await mediaSource(ctx),
    ...mediaThrottle(ctx, 1),
    ...downloadMessages(ctx),
  };
  const path = target?.kind === 'file' ? target.path : undefined;
  if (path !== undefined && !options.overwrite) {
    if (await looksComplete(kind, path)) {
      if (!ctx.globals.quiet) writeNotice(ctx.io, `${path} is already there; skipped (--overwrite downloads it again).`);
      return;
    }
  }
  // A byte meter for a file on a terminal (stdout bytes go to a pipe; the meter stays on stderr).
  const meter = path !== undefined && ctx.io.stderrIsTTY && !ctx.globals.quiet && !ctx.globals.verbose ? await createFileMeter(ctx.io.stderr, path) : undefined;
  // Drawn as soon as the size is known, so even a quick file shows what it is fetching.
  const progress = meter
    ? {
        onStart: (expected: number | undefined, fromByte: number) => {
          meter.started(expected, fromByte);
          meter.redraw();
        },
        onBytes: meter.bytes,
      }
    : {};
  // stdout, or a FIFO / device written through (no .part, no rename: output-target.ts).
  const through = target?.kind === 'through' ? target : undefined;
  const stream = path !== undefined ? undefined : through ? await openThrough(through, ctx.signal) : ctx.io.stdout;
  // A 404 comes before any byte is written, so even a stream can take the second try.
  const fetchOne = (job: MediaJob) =>
    stream !== undefined ? downloadToStream(job, stream, { ...common, ...progress }) : downloadFile(job, path!, { ...common, ...progress });
  try {
    try {
      await fetchOne(jobs[0]!);
    } catch (err) {
      const id = err instanceof NotFoundError ? await realId() : undefined;
      if (id === undefined) throw err;
      await fetchOne(jobsFor(id)[0]!);
    }
    if (through && stream) await closeThrough(stream, through.path);
  } catch (err) {
    if (through && stream) abandonThrough(stream);
    // Ctrl-C: say what the `.part` kept for the rerun.
    throw path !== undefined && err instanceof InterruptedError ? await interruptedFile(path, err) : err;
  } finally {
    meter?.stop();
  }
  if (path !== undefined && !ctx.globals.quiet) writeNotice(ctx.io, `Saved ${path}`);
}

/** --dir: every job into <dir>/<id>/<name> through the bulk engine, then the summary. */
export async function saveToDir(
  ctx: Context,
  api: ApiClient,
  options: { kind: MediaKind; names: string[]; overwrite: boolean },
  { jobs, unusable, jobsFor, realId }: FoundJobs,
): Promise<void> {
  const { kind, names } = options;
  const pool = { concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, skipExisting: !options.overwrite, failFast: false };
  let summary: BulkSummary;
  if (names.length === 0 || jobs.length === 0) {
    summary = await runMediaJobs(ctx, api, jobs, pool);
  } else {
    // Named media under the typed text: the first one alone probes whether the text is the id.
    // A 404 there resolves the text once (a name, say) and fetches every one under the real
    // id; otherwise the rest follow. One probe, never one 404 per name.
    const probe = await runMediaJobs(ctx, api, jobs.slice(0, 1), pool);
    const id = probe.outcomes[0]?.error instanceof NotFoundError ? await realId() : undefined;
    if (id !== undefined) {
      // The folder made for the typed text is empty (a 404 writes nothing): only the real id's stays.
      await Promise.all([...new Set(jobs.map((j) => dirname(j.path)))].map((d) => rmdir(d).catch(() => {})));
      summary = await runMediaJobs(ctx, api, jobsFor(id), pool);
    } else {
      summary = mergeSummaries(probe, await runMediaJobs(ctx, api, jobs.slice(1), pool));
    }
  }
  // One file asked for: its own error and exit code say more than "1 of 1 failed".
  const only = summary.outcomes.length === 1 && unusable.length === 0 ? summary.outcomes[0] : undefined;
  if (only?.status === 'failed' && only.error) throw only.error;
  await reportSummary(ctx, summary);
  if (unusable.length > 0) {
    throw new PartialFailureError(`${plural(unusable.length, `${kind} entry`, `${kind} entries`)} listed by the service could not be fetched (named above).`);
  }
}
