/**
 * `image` and `video`: the media of one exercise, every one its record lists, or those named (fetched
 * under the text as the id; after a 404, under the id the text resolves to, so a name works). `-o`
 * writes one file or streams to stdout, a FIFO or a device; else files go into <dir>/<id>/<name>.
 */
import { rmdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context, IOStreams } from '../../context.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../defaults.js';
import { AuthError, InterruptedError, NotFoundError, PartialFailureError, UsageError } from '../../errors.js';
import { MEDIA, type MediaKind } from '../../catalogue/media.js';
import { type MediaJob, type UnusableEntry, describeUnusable, jobsForRecord, mediaJob, uniqueJobs } from '../../media/jobs.js';
import type { BulkSummary } from '../../media/bulk.js';
import { interruptedFile, mergeSummaries } from '../../media/bulk-summary.js';
import { downloadFile, downloadToStream } from '../../media/download-file.js';
import { type OutputTarget, abandonThrough, closeThrough, openThrough, outputTarget } from '../../media/output-target.js';
import { looksComplete } from '../../media/verify.js';
import { hasMediaFields } from '../../media/media-names.js';
import { type ApiClient, isDotSegment } from '../../api/client.js';
import type { ImageProtocol } from '../../output/images/protocol.js';
import type { CellBox } from '../../output/images/fit.js';
import { createFileMeter } from '../../output/progress-meter.js';
import { writeNotice } from '../../output/notice.js';
import { plural } from '../../util/text.js';
import { pickMissingId } from '../../prompt/pick.js';
import type { Command } from 'commander';
import type { RegisterCommand, Run } from './register.js';
import { addExamples } from './help.js';
import { drawFlags, splitImagesValue } from './flags.js';
import { downloadSettings, outputDir, reportSummary, runMediaJobs } from './media-run.js';
import { viewImages } from './view-images.js';
import { showOnWeb } from './web-view.js';
import { oneOf, assertNoEmptyIds, recordOf, recordsAreLocal, resolveLocally, tellResolution } from './requested-ids.js';

const PLURAL: Record<MediaKind, string> = { image: 'images', video: 'videos' };

export interface SingleMediaOptions {
  kind: MediaKind;
  /** Undefined: the picker chooses one at a terminal. */
  idOrName?: string;
  /** Media names to fetch; none: every one the record lists. */
  names: string[];
  /** `-o`: the one file to write, `-` for stdout. */
  output?: string;
  dir: string;
  /** `--overwrite`: download again even when the file is complete. */
  overwrite: boolean;
  /** `image --view`: draw the images at the terminal (from disk first); fetched ones kept in `--dir`, else the cache directory. */
  view?: { protocol?: ImageProtocol; size?: CellBox; dir?: string };
  /** `image --web`: the record and its pictures on a page in the browser. */
  web?: boolean;
}

interface SingleMediaFlags {
  output?: string;
  dir?: string;
  overwrite?: boolean;
  view?: unknown;
  size?: string;
  web?: boolean;
}

/** Checks the arguments and flags (usage errors, before any request). */
export function singleMediaOptions(
  kind: MediaKind,
  idOrName: string | undefined,
  names: string[],
  flags: SingleMediaFlags,
  io: Pick<IOStreams, 'stdoutIsTTY'>,
): SingleMediaOptions {
  if (idOrName !== undefined) assertNoEmptyIds([idOrName]);
  if (idOrName !== undefined && isDotSegment(idOrName)) throw new UsageError(`"${idOrName}" cannot be an exercise id or name.`);
  if (names.some((n) => n.trim() === '')) throw new UsageError(`A ${kind} name cannot be empty.`);
  if (flags.output !== undefined && flags.dir !== undefined)
    throw new UsageError('-o and --dir cannot be used together: -o names one file, --dir a folder for all of them.');
  if (flags.output === '-' && io.stdoutIsTTY) {
    throw new UsageError(`Refusing to write ${kind} bytes to the terminal.`, {
      hint: `Pipe or redirect it (\`exercises ${kind} ${idOrName} ... -o - | ${kind === 'image' ? 'display -' : 'mpv -'}\`), or save it with -o <file> or --dir <dir>.`,
    });
  }
  const drawn = drawFlags(flags.view, flags.size, '--view');
  const view = drawn && { ...drawn, ...(flags.dir !== undefined ? { dir: outputDir(flags.dir) } : {}) };
  if (view && flags.output !== undefined) throw new UsageError('--view draws the images at the terminal; -o writes one to a file: give one of them.');
  if (flags.output !== undefined && names.length > 1)
    throw new UsageError(`-o takes exactly one ${kind}; ${names.length} names were given. Use --dir for several.`);
  if (flags.web && (view || flags.output !== undefined || flags.dir !== undefined))
    throw new UsageError('--web shows the images in the browser, kept in the cache directory: it goes without --view, -o and --dir.');
  return { kind, idOrName, names: [...names], output: flags.output, dir: outputDir(flags.dir), overwrite: flags.overwrite === true, view, web: flags.web };
}

export async function runSingleMedia(options: SingleMediaOptions, ctx: Context): Promise<void> {
  const { kind } = options;
  const given = options.idOrName ?? (await pickMissingId(ctx, kind, `Give the id or name of the exercise whose ${PLURAL[kind]} to fetch.`));
  // The id found locally before any request; unlike `show`, media commands resolve another case up front too.
  const resolution = await resolveLocally(ctx, given, { partial: await recordsAreLocal(ctx) });
  tellResolution(ctx, resolution);
  const idOrName = resolution.kind === 'id' ? resolution.id : resolution.kind === 'several' ? await oneOf(ctx, given, resolution.matches) : given;
  // What -o names is judged before any request: a directory or a socket is a usage error.
  const target = options.output === undefined || options.output === '-' ? undefined : outputTarget(resolve(options.output));
  const api = await ctx.api();
  if (options.view) return viewImages(ctx, api, await recordOf(ctx, api, idOrName), { ...options.view, names: options.names });
  if (options.web) return showOnWeb(ctx, api, [await recordOf(ctx, api, idOrName)], { kinds: ['image'], fetch: ['image'], names: options.names });

  const found = await findJobs(ctx, api, idOrName, options);
  // Nothing fetchable at all: the first reason is the answer (exit 6), not a summary of nothing.
  if (found.jobs.length === 0 && found.unusable[0]) throw found.unusable[0].error;
  if (options.output !== undefined) return saveOne(ctx, api, idOrName, options, target, found);
  return saveToDir(ctx, api, options, found);
}

/** `image` and `video`, declared by one function for both. */
export const registerImage: RegisterCommand<SingleMediaOptions> = (program, context, runF) => registerSingleMedia(program, context, 'image', runF);
export const registerVideo: RegisterCommand<SingleMediaOptions> = (program, context, runF) => registerSingleMedia(program, context, 'video', runF);

function registerSingleMedia(program: Command, context: () => Context, kind: MediaKind, runF: Run<SingleMediaOptions> = runSingleMedia): void {
  const ext = MEDIA[kind].extension.slice(1);
  const cmd = program
    .command(`${kind} [id-or-name] [names...]`)
    .description(`download premium ${PLURAL[kind]} of one exercise (all of them, or those named) to <dir>/<id>/<name>.${ext}`)
    .option('-o, --output <file>', `write the one ${kind} to this file; - writes it to stdout (not to a terminal)`)
    .option('--dir <dir>', 'folder to save into, as <dir>/<id>/<name> (default: the current directory)')
    .option('--overwrite', 'download again and overwrite files already present');
  if (kind === 'image')
    cmd
      .option(
        '--view [protocol]',
        'draw the images at the terminal, fitted to it (fetched ones kept in --dir if given, else in the cache directory): kitty, iterm or blocks (default: found from the terminal)',
      )
      .option('--size <WxH>', 'with --view: the columns and lines each picture may take (default: fitted to the terminal)')
      .option('--web', 'show the images in the browser, on a page with the record (fetched ones kept in the cache directory)');
  const viewer = kind === 'image' ? 'display -' : 'mpv -';
  addExamples(
    cmd,
    [
      `exercises ${kind} Barbell_Bench_Press`,
      `exercises ${kind} Barbell_Bench_Press ${kind === 'image' ? 'start end' : 'demo'} --dir media`,
      `exercises ${kind} "Barbell Bench Press" ${kind === 'image' ? 'start' : 'demo'} -o bench.${ext}`,
      `exercises --sandbox ${kind} Plank --dir /tmp/media --overwrite`,
      ...(kind === 'image' ? ['exercises image Plank --view', 'exercises image Plank --web'] : []),
    ],
    [`exercises ${kind} Barbell_Bench_Press ${kind === 'image' ? 'start' : 'demo'} -o - | ${viewer}`],
  );
  cmd.action(async (idOrName: string | undefined, names: string[], flags: SingleMediaFlags) => {
    const ctx = context();
    // `image --view Plank`: the id taken as the flag's value; `image Plank --view start`: a name.
    const { flag, positional } = splitImagesValue(flags.view, '--view', ctx.argv);
    if (positional !== undefined) {
      flags = { ...flags, view: flag };
      // The value came before the id (`image --view Plank start`): it is the id, the rest names.
      const before = idOrName === undefined || ctx.argv.indexOf('--view') < ctx.argv.indexOf(idOrName);
      if (before) [idOrName, names] = [positional, idOrName === undefined ? names : [idOrName, ...names]];
      else names = [positional, ...names];
    }
    await runF(singleMediaOptions(kind, idOrName, names, flags, ctx.io), ctx);
  });
}

interface FoundJobs {
  jobs: MediaJob[];
  /** Entries of the record no URL can fetch: named on stderr, the others still fetched, exit 7. */
  unusable: UnusableEntry[];
  /** The named media's jobs under another id (the record's real one). */
  jobsFor(exerciseId: string): MediaJob[];
  /** After a 404 under the typed text: the record's id when the text is not it, else undefined (one record request). */
  realId(): Promise<string | undefined>;
}

async function findJobs(ctx: Context, api: ApiClient, idOrName: string, options: SingleMediaOptions): Promise<FoundJobs> {
  const { kind, names, dir } = options;
  const jobsFor = (exerciseId: string): MediaJob[] => uniqueJobs(names.map((entry) => mediaJob(api, dir, exerciseId, kind, entry)));
  const realId = async (): Promise<string | undefined> => {
    if (names.length === 0) return undefined; // the jobs already came from the record
    const record = await recordOf(ctx, api, idOrName);
    return record.id !== undefined && record.id !== idOrName ? record.id : undefined;
  };
  const unusable: UnusableEntry[] = [];
  if (names.length > 0) return { jobs: jobsFor(idOrName), unusable, jobsFor, realId };

  const record = await recordOf(ctx, api, idOrName);
  const jobs = jobsForRecord(api, dir, record.id ?? idOrName, record, [kind], (u) => {
    unusable.push(u);
    writeNotice(ctx.io, `Skipped: ${describeUnusable(u)}`);
  });
  if (jobs.length === 0 && unusable.length === 0) {
    // No media field at all is the plan's answer: exit 3, not "not found".
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

/** `-o <file>` or `-o -`: one file, under the typed text, then under the record's id after a 404. */
async function saveOne(
  ctx: Context,
  api: ApiClient,
  idOrName: string,
  options: SingleMediaOptions,
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
  const path = target?.kind === 'file' ? target.path : undefined;
  if (path !== undefined && !options.overwrite && (await looksComplete(kind, path))) {
    if (!ctx.globals.quiet) writeNotice(ctx.io, `${path} is already there; skipped (--overwrite downloads it again).`);
    return;
  }
  // A byte meter on stderr for a file, on a terminal.
  const meter = path !== undefined && ctx.io.stderrIsTTY && !ctx.globals.quiet && !ctx.globals.verbose ? await createFileMeter(ctx.io.stderr, path) : undefined;
  const settings = {
    ...(await downloadSettings(ctx, api, 1)),
    // Drawn as soon as the size is known, so even a quick file shows what it is fetching.
    ...(meter && {
      onStart: (expected: number | undefined, fromByte: number) => {
        meter.started(expected, fromByte);
        meter.redraw();
      },
      onBytes: meter.bytes,
    }),
  };
  // stdout, or a FIFO / device written through (no .part, no rename).
  const through = target?.kind === 'through' ? target : undefined;
  const stream = path !== undefined ? undefined : through ? await openThrough(through, ctx.signal) : ctx.io.stdout;
  // A 404 comes before any byte is written, so even a stream can take the second try.
  const fetchOne = (job: MediaJob) => (stream !== undefined ? downloadToStream(job, stream, settings) : downloadFile(job, path!, settings));
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

async function saveToDir(ctx: Context, api: ApiClient, options: SingleMediaOptions, { jobs, unusable, jobsFor, realId }: FoundJobs): Promise<void> {
  const { kind, names } = options;
  const pool = { concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, skipExisting: !options.overwrite, failFast: false };
  let summary: BulkSummary;
  if (names.length === 0 || jobs.length === 0) {
    summary = await runMediaJobs(ctx, api, jobs, pool);
  } else {
    // The first named file alone probes whether the text is the id: one 404, never one per name.
    const probe = await runMediaJobs(ctx, api, jobs.slice(0, 1), pool);
    const id = probe.outcomes[0]?.error instanceof NotFoundError ? await realId() : undefined;
    if (id !== undefined) {
      // The folder made for the typed text is empty (a 404 writes nothing).
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
