/**
 * `exercises mirror <dir>`: the listing (every id), then every record the directory lacks, then
 * each language asked, appended to the work file as they arrive; exercises.jsonl is rebuilt
 * atomically at the end and at every stop (budget, Ctrl-C, a fatal error), so the directory
 * is always servable and the next run continues with no request repeated. Media last.
 */
import { mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import { paginatePages } from '../api/paging.js';
import type { MediaKind } from '../catalogue/media.js';
import type { CatalogueEntry, Translation } from '../catalogue/types.js';
import type { BulkSummary } from '../media/bulk.js';
import type { MediaJob } from '../media/jobs.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../defaults.js';
import { CliError, InterruptedError, NotFoundError, PartialFailureError } from '../errors.js';
import { plural } from '../util/text.js';
import { catalogueEntry, writeCatalogueFile } from './catalogue-file.js';
import { LISTING_PAGE_SIZE, listingCost, planMirror, requestCount } from './plan.js';
import { WorkFileWriter, readWorkFile, translationOf, workPaths } from './work-file.js';

export interface MirrorOptions {
  dir: string;
  langs: string[];
  media: MediaKind[];
  dryRun: boolean;
  refresh: boolean;
  /** Record requests in flight at once. */
  concurrency: number;
}

/** What a mirror needs from the run, given by the `mirror` command. */
export interface MirrorDeps {
  /**
   * The client to ask (never through the response cache: a rerun must see the listing as it
   * is now, and the work file already keeps every record a mirror fetched) and the monthly
   * budget in force, for the up-front count. Called once the work directory exists.
   */
  connect(): Promise<{ api: ApiClient; budget: number | null }>;
  /** Downloads media jobs with the run's retries, progress and messages (the engine `download` uses). */
  downloadMedia(api: ApiClient, jobs: MediaJob[], options: { concurrency: number; skipExisting: boolean; failFast: boolean }): Promise<BulkSummary>;
  stderr: Writable;
  stderrIsTTY: boolean;
  quiet: boolean;
  signal: AbortSignal;
}

/** The ids the service lists now, a page of 25 at a time. */
async function fetchListing(api: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  const seen = new Set<string>();
  for await (const page of paginatePages((cursor) => api.exerciseIds({ ...cursor, limit: LISTING_PAGE_SIZE }), { limit: LISTING_PAGE_SIZE })) {
    for (const item of page) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      ids.push(item.id);
    }
  }
  return ids;
}

function readStoredListing(path: string): string[] | undefined {
  try {
    const ids = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : undefined;
  } catch {
    return undefined;
  }
}

function storeListing(path: string, ids: readonly string[]): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(ids));
  renameSync(temp, path);
}

/** A one-line progress display on a terminal stderr, redrawn at most every 100 ms. */
function progressLine(out: Pick<MirrorDeps, 'stderr' | 'stderrIsTTY' | 'quiet'>, total: number): { tick(): void; done(): void } {
  if (!out.stderrIsTTY || out.quiet || total === 0) return { tick() {}, done() {} };
  let count = 0;
  let last = 0;
  const draw = (): void => void out.stderr.write(`\r\x1b[2Kmirror: ${count}/${total} requests`);
  return {
    tick() {
      count += 1;
      const now = Date.now();
      if (now - last > 100 || count === total) {
        last = now;
        draw();
      }
    },
    done() {
      out.stderr.write('\r\x1b[2K');
    },
  };
}

export async function runMirror(options: MirrorOptions, deps: MirrorDeps): Promise<void> {
  const dir = resolve(options.dir);
  const say = (line: string): void => {
    if (!deps.quiet) deps.stderr.write(`${line}\n`);
  };
  const paths = workPaths(dir);
  mkdirSync(paths.workDir, { recursive: true });
  const { api, budget } = await deps.connect();
  const against = budget !== null ? ` (budget: ${budget} this month)` : '';

  const fetched = readWorkFile(dir);
  if (options.dryRun) {
    const stored = readStoredListing(paths.listing);
    const ids = stored ?? (await fetchListing(api));
    const plan = planMirror(ids, fetched, options.langs, options.refresh);
    const listing = listingCost(ids.length);
    const source = stored
      ? `the listing of the last run (${plural(ids.length, 'id')}); a run fetches it again: ${plural(listing, 'request')}`
      : `the listing (${plural(ids.length, 'id')}) cost ${plural(listing, 'request')}`;
    say(`mirror --dry-run: ${source}; ${plural(plan.records.length, 'record request')} and ${plural(plan.localised.length, 'translation request')} to go: ${requestCount(plan) + listing} in all${against}${options.media.length > 0 ? ', plus one per media file missing' : ''}.`);
    if (!stored) storeListing(paths.listing, ids);
    return;
  }

  say(`mirror: fetching the listing (${LISTING_PAGE_SIZE} ids a request)…`);
  const ids = await fetchListing(api);
  storeListing(paths.listing, ids);
  const plan = planMirror(ids, fetched, options.langs, options.refresh);
  say(
    `mirror: ${plural(ids.length, 'id')} listed (${plural(listingCost(ids.length), 'request')}); ${plural(plan.records.length, 'record request')}` +
      ` and ${plural(plan.localised.length, 'translation request')} to go: ${requestCount(plan)} more${against}` +
      `${options.media.length > 0 ? ', plus one per media file missing' : ''}.`,
  );

  const failed: string[] = [];
  const writer = new WorkFileWriter(dir);
  const progress = progressLine(deps, requestCount(plan));
  let stop: unknown;
  let requests = 0;
  try {
    // Records first, then languages: a translation is stored against its English record.
    const tasks: Array<() => Promise<void>> = [
      ...plan.records.map((id) => async () => {
        const record = await api.getExercise(id);
        writer.append({ id, lang: null, record });
        fetched.records.set(id, record);
      }),
      ...plan.localised.map(([id, lang]) => async () => {
        const record = await api.getExercise(id, { lang });
        writer.append({ id, lang, record });
        const english = fetched.records.get(id);
        if (english) {
          const byLang = fetched.langs.get(id) ?? new Map<string, Translation | null>();
          byLang.set(lang, translationOf(english, record));
          fetched.langs.set(id, byLang);
        }
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
          if (!missing.has(id)) failed.push(`${id}: listed, but its record is not found (404)`);
          missing.add(id);
        }
        progress.tick();
      }
    };
    const workers = Array.from({ length: Math.max(1, options.concurrency) }, () =>
      worker().catch((err: unknown) => {
        stop ??= err;
      }),
    );
    await Promise.all(workers);
  } finally {
    progress.done();
    writer.close();
  }

  const entries = writeCatalogueFile(dir, ids, fetched);
  if (stop !== undefined) {
    say(`mirror: stopped after ${plural(requests, 'request')} this run; ${plural(entries, 'exercise')} in ${dir}/exercises.jsonl. Run it again to continue.`);
    throw deps.signal.aborted && !(stop instanceof CliError) ? new InterruptedError() : stop;
  }

  let mediaLine = '';
  if (options.media.length > 0) {
    const { mirrorMediaJobs } = await import('./media.js');
    const { describeUnusable } = await import('../media/jobs.js');
    const listed = ids.map((id) => catalogueEntry(id, fetched)).filter((e): e is CatalogueEntry => e !== undefined);
    const jobs = mirrorMediaJobs(api, dir, listed, options.media, (u) => failed.push(describeUnusable(u)));
    const summary = await deps.downloadMedia(api, jobs, { concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, skipExisting: true, failFast: false });
    for (const o of summary.outcomes) if (o.status === 'failed') failed.push(`${o.job.what}: ${o.error?.message ?? 'failed'}`);
    mediaLine = `; media: ${summary.fetched} fetched, ${summary.skipped} already there, ${summary.failed} failed`;
    if (summary.stoppedEarly || deps.signal.aborted) throw new InterruptedError();
  }

  say(`mirror: ${plural(entries, 'exercise')} in ${dir} (${plural(requests, 'record request')} this run${mediaLine}).`);
  if (failed.length > 0) {
    for (const line of failed.slice(0, 20)) deps.stderr.write(`  failed: ${line}\n`);
    if (failed.length > 20) deps.stderr.write(`  … and ${failed.length - 20} more\n`);
    throw new PartialFailureError(`${plural(failed.length, 'item')} of the mirror failed; the rest is in ${dir}.`);
  }
}
