/**
 * `--web` (show, image, query): a page of the exercises written into the cache directory and opened in
 * the browser (or its path printed). Media are taken from disk where they are; missing ones of the
 * kinds in `fetch` are downloaded as `image --view` does; what is left out is said with its cost.
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../api/client.js';
import type { ExerciseRecord } from '../../catalogue/types.js';
import type { MediaKind } from '../../catalogue/media.js';
import { CliError, ExitCode } from '../../errors.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../defaults.js';
import { cacheRoot, checkOwnDir, makePrivateDir, replaceFileSync } from '../../cache/store-files.js';
import type { MediaJob } from '../../media/jobs.js';
import { safeComponent } from '../../media/safe-path.js';
import { looksComplete } from '../../media/verify.js';
import { type PageMedia, renderWebPage } from '../../output/web-page.js';
import { browserOpener, openInBrowser } from '../../output/browser.js';
import { writeNotice } from '../../output/notice.js';
import { catalogueDir } from '../../prompt/known-exercises.js';
import { escapeUnsafe, plural } from '../../util/text.js';
import { runMediaJobs } from './media-run.js';
import { catalogueFile, keptMediaDir, recordMediaJobs } from './view-images.js';

export interface WebOptions {
  kinds: readonly MediaKind[];
  /** The kinds downloaded when missing (the others shown only when on disk). */
  fetch: readonly MediaKind[];
  /** Only the pictures of these names (`image <id> <names…> --web`). */
  names?: readonly string[];
}

/** Each job's file on disk, downloading the missing ones of the kinds `fetch` names; the jobs left without one. */
async function mediaFiles(ctx: Context, api: ApiClient, jobs: readonly MediaJob[], fetch: readonly MediaKind[]): Promise<Map<MediaJob, string>> {
  const catalogue = await catalogueDir(ctx);
  const files = new Map<MediaJob, string>();
  const wanted: MediaJob[] = [];
  for (const job of jobs) {
    const found = catalogue === undefined ? undefined : await catalogueFile(catalogue, job);
    if (found !== undefined && (await looksComplete(job.kind, found))) files.set(job, found);
    else if (fetch.includes(job.kind)) wanted.push(job);
    else if (await looksComplete(job.kind, job.path)) files.set(job, job.path);
  }
  if (wanted.length === 0) return files;
  const summary = await runMediaJobs(ctx, api, wanted, { concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, skipExisting: true, failFast: false });
  for (const { job, status, error } of summary.outcomes) {
    if (status !== 'failed') files.set(job, job.path);
    else writeNotice(ctx.io, `Cannot fetch ${job.what}: ${escapeUnsafe(error?.message ?? 'the download failed')}`);
  }
  return files;
}

/** Writes the page of `records` into the cache directory and opens it. */
export async function showOnWeb(ctx: Context, api: ApiClient, records: readonly ExerciseRecord[], options: WebOptions): Promise<void> {
  const webDir = join(cacheRoot(ctx.env), 'web');
  const kept = keptMediaDir(ctx.env);
  checkOwnDir(webDir);
  makePrivateDir(webDir);
  const jobsOf = records.map((record) => recordMediaJobs(ctx, api, kept, record, options.kinds, options.names));
  const files = await mediaFiles(ctx, api, jobsOf.flat(), options.fetch);
  // Relative to the page; a file on another drive (Windows) by its file: URL.
  const href = (file: string): string =>
    isAbsolute(relative(webDir, file)) ? pathToFileURL(file).href : relative(webDir, file).split(sep).map(encodeURIComponent).join('/');
  const media = (jobs: MediaJob[], kind: MediaKind): PageMedia[] =>
    jobs.filter((j) => j.kind === kind).map((j) => ({ name: j.name, href: files.has(j) ? href(files.get(j)!) : undefined }));
  const cards = records.map((record, i) => ({ record, images: media(jobsOf[i]!, 'image'), videos: media(jobsOf[i]!, 'video') }));
  // What is missing and was not asked for: how to ask, and the cost (a request a file).
  const notes = options.kinds
    .filter((kind) => !options.fetch.includes(kind))
    .map((kind) => [kind, jobsOf.flat().filter((j) => j.kind === kind && !files.has(j)).length] as const)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${plural(count, kind)} not on this machine; --${kind}s fetches ${count === 1 ? 'it' : 'them'} (${plural(count, 'request')}).`);
  for (const note of notes) writeNotice(ctx.io, note);
  const one = records.length === 1 ? records[0] : undefined;
  const title = one ? String(one.displayName ?? one.name) : `exercises ${ctx.argv.join(' ')}`;
  const page = join(webDir, `${safeComponent(one ? (one.id ?? one.name) : (ctx.command ?? 'exercises'))}.html`);
  replaceFileSync(page, renderWebPage(title, cards, notes));
  await openPage(ctx, page);
}

/** Opens the page in the browser, or prints its path where none can be opened. */
async function openPage(ctx: Context, page: string): Promise<void> {
  const opener = browserOpener(ctx.env, process.platform, ctx.io.stdoutIsTTY);
  if ('why' in opener) {
    if (ctx.io.stdoutIsTTY && !ctx.globals.quiet) writeNotice(ctx.io, `Not opening a browser: ${opener.why}. The page:`);
    ctx.io.stdout.write(`${page}\n`);
    return;
  }
  if (!ctx.globals.quiet) writeNotice(ctx.io, `Opening ${page} in your browser.`);
  try {
    await openInBrowser(opener, page);
  } catch (err) {
    ctx.io.stdout.write(`${page}\n`);
    throw new CliError(`Could not open the page in a browser: ${(err as Error).message}.`, ExitCode.NETWORK, 'browser', {
      hint: 'Open the page printed above yourself, or set BROWSER to the command that opens a file in your browser.',
    });
  }
}
