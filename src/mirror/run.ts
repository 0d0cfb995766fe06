/**
 * `exercises mirror <dir>`: the listing, then every record the directory lacks, then each language,
 * appended to the work file as they arrive; exercises.jsonl is rebuilt at the end and at every stop, so
 * the directory is always servable and a rerun repeats no request. Media last.
 */
import { join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { type MediaKind, MEDIA } from '../catalogue/media.js';
import type { CatalogueEntry } from '../catalogue/types.js';
import type { BulkSummary } from '../media/bulk.js';
import { type MediaJob, describeUnusable, printable } from '../media/jobs.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../defaults.js';
import { CliError, InterruptedError, NotFoundError, PartialFailureError, WriteFailedError } from '../errors.js';
import { escapeUnsafe, plural } from '../util/text.js';
import { ensureRealDir } from '../util/real-dir.js';
import { catalogueEntry, mirrorMediaJobs, writeCatalogueFile, writeMediaIndex } from './catalogue-file.js';
import { fetchListing, markListingCached, readStoredListing, storeListing, takeListingCachedMark, unstorableReason, withPrevious } from './listing.js';
import { LISTING_PAGE_SIZE, type MirrorPlan, listingCost, planMirror } from './plan.js';
import { type MirrorSource, WORK_DIR, WorkFileWriter, addTranslation, readWorkFile, workPaths } from './work-file.js';
import { writeNotice } from '../output/notice.js';
import { shownPath } from '../output/shown-path.js';
import { progressText } from '../output/wrap.js';

export interface MirrorOptions {
  dir: string;
  langs: string[];
  media: MediaKind[];
  dryRun: boolean;
  refresh: boolean;
  concurrency: number;
}

export interface MirrorDeps {
  /**
   * The client to ask (never through the response cache: the work file keeps every record), the budget
   * in force and the service and key answering. Called once the work directory is known to be safe.
   */
  connect(): Promise<{ api: ApiClient; budget: number | null; origin: string; keyHash: string }>;
  /** The client through the response cache, for the listing only (undefined with --no-cache), so a run right after a dry run lists for free. */
  cachedApi(): Promise<ApiClient | undefined>;
  /** Downloads media jobs with the engine `download` uses. */
  downloadMedia(api: ApiClient, jobs: MediaJob[], options: { concurrency: number; skipExisting: boolean; failFast: boolean }): Promise<BulkSummary>;
  stderr: Writable;
  stderrIsTTY: boolean;
  columns: number;
  quiet: boolean;
  verbose: boolean;
  signal: AbortSignal;
}

const shown = (text: string): string => JSON.stringify(printable(text));

/** A one-line progress display on a terminal's stderr, redrawn at most every 100 ms. */
function progressLine(out: Pick<MirrorDeps, 'stderr' | 'stderrIsTTY' | 'columns' | 'quiet'>, total: number): { tick(): void; done(): void } {
  if (!out.stderrIsTTY || out.quiet || total === 0) return { tick() {}, done() {} };
  let count = 0;
  let last = 0;
  return {
    tick() {
      count += 1;
      if (Date.now() - last <= 100 && count !== total) return;
      last = Date.now();
      out.stderr.write(`\r\x1b[2K${progressText(`mirror: ${count}/${total} requests`, out.columns)}`);
    },
    done: () => void out.stderr.write('\r\x1b[2K'),
  };
}

export async function runMirror(options: MirrorOptions, deps: MirrorDeps): Promise<void> {
  const dir = resolve(options.dir);
  const dirShown = shownPath(dir, options.dir);
  const say = (line: string): void => {
    if (!deps.quiet) writeNotice(deps, line);
  };
  const verbose = (line: string): void => {
    if (deps.verbose) writeNotice(deps, line);
  };
  const paths = workPaths(dir);
  // The root may be a link the user made; nothing below it may be.
  ensureRealDir(dir, WORK_DIR);
  const { api, budget, origin, keyHash } = await deps.connect();
  const against = budget !== null ? ` (budget: ${budget} this month)` : '';
  const media = options.media.length > 0 ? ', plus one per media file missing' : '';
  /** "2 record requests and 4 translation requests to go: <count> (budget: …), plus …" */
  const toGo = (plan: MirrorPlan, count: string): string =>
    `${plural(plan.records.length, 'record request')} and ${plural(plan.localised.length, 'translation request')} to go: ${count}${against}${media}`;

  if (options.dryRun) {
    const stored = readStoredListing(paths.listing);
    const cachedApi = stored ? undefined : await deps.cachedApi();
    const listing = stored ? undefined : await fetchListing(cachedApi ?? api);
    const ids = stored ?? listing!.ids;
    const fetched = readWorkFile(dir, listing ? { origin, keyHash, plan: listing.plan } : undefined);
    const plan = planMirror(ids, fetched, options.langs, options.refresh);
    const cost = listingCost(ids.length);
    // A listing fetched whole stays in the response cache: the real run right after lists for free.
    const kept = cachedApi !== undefined && listing !== undefined && !listing.problem;
    const source = stored
      ? `the listing of the last run (${plural(ids.length, 'id')}); a run fetches it again: ${plural(cost, 'request')}`
      : `the listing (${plural(ids.length, 'id')}) cost ${plural(cost, 'request')}`;
    const total = plan.requests + (kept ? 0 : cost);
    const saving = kept ? `; the listing stays in the response cache, so the run right after spends none on it (${plural(cost, 'request')} saved)` : '';
    say(`mirror --dry-run: ${source}; ${toGo(plan, `${total} in all`)}${saving}.`);
    if (listing && !listing.problem) storeListing(paths.listing, ids);
    if (kept) markListingCached(paths.listingCached);
    return;
  }

  const failed: string[] = [];
  const cachedListing = takeListingCachedMark(paths.listingCached) ? await deps.cachedApi() : undefined;
  const listingApi = cachedListing ?? api;
  say(`mirror: fetching the listing (${LISTING_PAGE_SIZE} ids a request)…`);
  const listing = await fetchListing(listingApi);
  for (const id of listing.unstorable) failed.push(`${shown(id)}: listed, but ${unstorableReason(id)} cannot be stored in a catalogue; skipped`);
  let ids = listing.ids;
  if (listing.problem) {
    // A listing cut short must not make the catalogue lose what the last one listed.
    ids = withPrevious(ids, readStoredListing(paths.listing));
    writeNotice(deps, `warning: ${listing.problem.message}; the ${plural(ids.length - listing.ids.length, 'id')} of the previous listing it lacks are kept.`);
    failed.push(`the listing: ${listing.problem.message}`);
  }
  storeListing(paths.listing, ids);
  const source: MirrorSource = { origin, keyHash, plan: listing.plan };
  const fetched = readWorkFile(dir, source);
  const plan = planMirror(ids, fetched, options.langs, options.refresh);
  const stale = plan.records.filter((id) => fetched.stale.has(id)).length;
  const listed = cachedListing ? "the dry run's listing, through the response cache" : plural(listingCost(ids.length), 'request');
  say(`mirror: ${plural(ids.length, 'id')} listed (${listed}); ${toGo(plan, `${plan.requests} more`)}.`);
  if (stale > 0)
    say(`mirror: ${plural(stale, 'record')} came from another service or plan (${listing.plan} now) and ${stale === 1 ? 'is' : 'are'} fetched again.`);

  const writer = new WorkFileWriter(dir);
  const progress = progressLine(deps, plan.requests);
  let stop: unknown;
  let requests = 0;
  try {
    // Records first, then languages: a translation is stored against its English record.
    const tasks: Array<() => Promise<void>> = [
      ...plan.records.map((id) => async () => {
        const record = await api.getExercise(id);
        if (record.id !== id)
          verbose(
            `mirror: the record listed as ${shown(id)} came ${record.id === undefined ? 'without an id' : `with the id ${shown(record.id)}`}; stored as ${shown(id)}.`,
          );
        writer.append({ id, lang: null, record, source });
        fetched.records.set(id, record);
        fetched.stale.delete(id);
      }),
      ...plan.localised.map(([id, lang]) => async () => {
        const record = await api.getExercise(id, { lang });
        writer.append({ id, lang, record, source });
        addTranslation(fetched, id, lang, record);
      }),
    ];
    const missing = new Set<string>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (stop === undefined && next < tasks.length) {
        if (deps.signal.aborted) throw new InterruptedError();
        const task = tasks[next++]!;
        try {
          await task();
          requests += 1;
        } catch (err) {
          if (!(err instanceof NotFoundError)) throw err;
          const id = (err.details as { exercise?: string } | undefined)?.exercise ?? '?';
          if (!missing.has(id)) failed.push(`${shown(id)}: listed, but its record is not found (404)`);
          missing.add(id);
        }
        progress.tick();
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker().catch((err: unknown) => void (stop ??= err))));
  } finally {
    progress.done();
    try {
      writer.close();
    } catch (err) {
      stop ??= err;
    }
  }

  const entries = writeCatalogueFile(dir, ids, fetched, (id, reason) =>
    failed.push(`${shown(id)}: its record cannot be held in a catalogue (${escapeUnsafe(reason)}); left out`),
  );
  if (stop !== undefined) {
    say(
      `mirror: stopped after ${plural(requests, 'request')} this run; ${plural(entries, 'exercise')} in ${join(dirShown, 'exercises.jsonl')}. Run it again to continue.`,
    );
    throw deps.signal.aborted && !(stop instanceof CliError) ? new InterruptedError() : stop;
  }

  let mediaLine = '';
  if (options.media.length > 0) {
    for (const kind of options.media) ensureRealDir(dir, MEDIA[kind].folder); // a planted `images` link: exit 6 before any file
    const listed = ids.map((id) => catalogueEntry(id, fetched)).filter((e): e is CatalogueEntry => e !== undefined);
    const jobs = mirrorMediaJobs(api, dir, listed, options.media, (u) => failed.push(describeUnusable(u)));
    // The index first: a file is reachable once in place.
    writeMediaIndex(dir, options.media, jobs);
    const summary = await deps.downloadMedia(api, jobs, { concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, skipExisting: true, failFast: false });
    for (const o of summary.outcomes) if (o.status === 'failed') failed.push(`${o.job.what}: ${o.error?.message ?? 'failed'}`);
    // A write refused inside the mirror (a planted link) is the disk's failure: exit 6.
    const refused = summary.outcomes.find((o) => o.error instanceof WriteFailedError);
    if (refused?.error) throw refused.error;
    mediaLine = `; media: ${summary.fetched} fetched, ${summary.skipped} already there, ${summary.failed} failed`;
    if (summary.stoppedEarly || deps.signal.aborted) throw new InterruptedError();
  }

  say(`mirror: ${plural(entries, 'exercise')} in ${dirShown} (${plural(requests, 'record request')} this run${mediaLine}).`);
  if (failed.length > 0) {
    for (const line of failed.slice(0, 20)) writeNotice(deps, `  failed: ${line}`, { indent: 2, hanging: 4 });
    if (failed.length > 20) writeNotice(deps, `  … and ${failed.length - 20} more`);
    throw new PartialFailureError(`${plural(failed.length, 'item')} of the mirror failed; the rest is in ${dirShown}.`);
  }
}
