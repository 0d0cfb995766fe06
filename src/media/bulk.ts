/**
 * The bulk engine: a bounded pool of downloads over media jobs. A complete file already on
 * disk is skipped without any request; one file's failure does not stop the others (unless
 * fail-fast); errors that doom every other file too — the key or plan refused (401/403), the
 * rate limit spent, Ctrl-C — stop the whole run at once. What the summary says is
 * bulk-summary.ts's.
 */
import { AuthError, BudgetExceededError, InterruptedError, RateLimitError, WriteFailedError } from '../errors.js';
import type { DownloadResult } from './download/types.js';
import type { MediaJob } from './jobs.js';
import type { BulkSummary, FileProgress, JobOutcome, ProgressSink } from './bulk-types.js';
import { looksComplete } from './verify.js';
import { interruptedError } from './bulk-summary.js';

export type { BulkSummary, FileProgress, JobOutcome, ProgressSink } from './bulk-types.js';

export interface BulkOptions {
  concurrency: number;
  skipExisting: boolean;
  failFast: boolean;
  signal?: AbortSignal;
  /** Fetches one job, reporting to `progress`; `signal` also fires when the run stops early. */
  download(job: MediaJob, progress: FileProgress, signal: AbortSignal): Promise<DownloadResult>;
  progress?: ProgressSink;
}

/** Disk failures no other file escapes: the whole file system is full or refuses writes. */
const DISK_FATAL = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

/** Errors after which no other file can succeed either (a full disk included: exit 6 at once, not a failure per file). */
export function isFatal(err: unknown): boolean {
  if (err instanceof WriteFailedError) return DISK_FATAL.has(String((err.cause as { code?: unknown } | undefined)?.code));
  return err instanceof AuthError || err instanceof RateLimitError || err instanceof InterruptedError;
}

export async function runBulk(jobs: readonly MediaJob[], options: BulkOptions): Promise<BulkSummary> {
  const started = performance.now();
  const outcomes = new Array<JobOutcome>(jobs.length);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  let next = 0;
  /** Jobs whose download began: those left without an outcome by Ctrl-C may have kept a `.part`. */
  const begun = new Set<number>();

  const sink = options.progress;
  sink?.start(jobs.length);

  const runOne = async (index: number): Promise<void> => {
    const job = jobs[index]!;
    if (options.skipExisting && (await looksComplete(job.kind, job.path))) {
      outcomes[index] = { job, status: 'skipped', bytes: 0 };
      sink?.fileDone(outcomes[index]);
      return;
    }
    let bytes = 0;
    begun.add(index);
    const progress: FileProgress = {
      started: (expected, fromByte) => sink?.fileStarted(job, expected, fromByte),
      bytes: (n) => {
        bytes += n;
        sink?.fileBytes(job, n);
      },
    };
    try {
      const result = await options.download(job, progress, signal);
      outcomes[index] = { job, status: 'fetched', bytes: result.received, ...(result.resumed ? { resumed: true as const } : {}) };
    } catch (err) {
      if (stop.signal.aborted && !options.signal?.aborted) return; // cancelled by the early stop: not its failure
      if (err instanceof BudgetExceededError) {
        // No other request may go out, but those already sent (and counted) finish and are kept.
        fatal ??= err;
        return;
      }
      if (isFatal(err)) {
        fatal ??= err;
        stop.abort();
        return;
      }
      outcomes[index] = { job, status: 'failed', bytes, error: err instanceof Error ? err : new Error(String(err)) };
      if (options.failFast) stop.abort();
    }
    sink?.fileDone(outcomes[index]);
  };

  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted && !options.signal?.aborted && fatal === undefined && next < jobs.length) {
      await runOne(next++);
    }
  };

  try {
    const size = Math.max(1, Math.min(options.concurrency, jobs.length));
    await Promise.all(Array.from({ length: size }, worker));
  } finally {
    sink?.stop();
  }
  const summary = summarise(jobs.length, outcomes, started);
  if (options.signal?.aborted)
    throw await interruptedError(
      summary,
      [...begun].filter((i) => outcomes[i] === undefined).map((i) => jobs[i]!),
    );
  if (fatal instanceof BudgetExceededError) {
    const kept = summary.fetched + summary.skipped;
    throw new BudgetExceededError(
      { month: fatal.month, requests: fatal.requests, budget: fatal.budget, origin: fatal.origin },
      {
        hint: `Stopped at the budget with ${kept} of ${jobs.length} files in place; run again to continue (files already complete are skipped). ${fatal.hint ?? ''}`.trim(),
      },
    );
  }
  if (fatal !== undefined) throw fatal;
  return summary;
}

function summarise(total: number, outcomes: ReadonlyArray<JobOutcome | undefined>, started: number): BulkSummary {
  const done = outcomes.filter((o): o is JobOutcome => o !== undefined);
  let fetched = 0;
  let skipped = 0;
  let failed = 0;
  let bytes = 0;
  for (const o of done) {
    if (o.status === 'fetched') fetched++;
    else if (o.status === 'skipped') skipped++;
    else failed++;
    bytes += o.bytes;
  }
  return {
    total,
    fetched,
    skipped,
    failed,
    bytes,
    seconds: (performance.now() - started) / 1000,
    outcomes: done,
    // Without an interruption or a fatal error, only --fail-fast leaves jobs without an outcome.
    stoppedEarly: done.length < total,
  };
}
