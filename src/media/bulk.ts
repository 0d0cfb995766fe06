/**
 * The bulk engine: a bounded pool of downloads over media jobs. A complete file already on
 * disk is skipped without any request; one file's failure does not stop the others (unless
 * fail-fast); errors that doom every other file too — the key or plan refused (401/403), the
 * rate limit spent, Ctrl-C — stop the whole run at once.
 */
import {
  AuthError,
  BudgetExceededError,
  CliError,
  InterruptedError,
  MalformedResponseError,
  NetworkError,
  PartialFailureError,
  RateLimitError,
  WriteFailedError,
} from '../errors.js';
import type { DownloadResult } from './download-file.js';
import type { MediaJob } from './jobs.js';
import { looksComplete } from './verify.js';
import { oneLine, plural } from '../util/text.js';

export type JobStatus = 'fetched' | 'skipped' | 'failed';

export interface JobOutcome {
  job: MediaJob;
  status: JobStatus;
  /** Bytes received over the network for this file in this run. */
  bytes: number;
  error?: Error;
}

export interface BulkSummary {
  /** Jobs in the run (with --fail-fast, some may have no outcome). */
  total: number;
  fetched: number;
  skipped: number;
  failed: number;
  bytes: number;
  seconds: number;
  outcomes: JobOutcome[];
  /** True when --fail-fast stopped the run before every job had its turn. */
  stoppedEarly: boolean;
}

/**
 * What a download reports about its file, as it happens (the downloader's side of ProgressSink).
 */
export interface FileProgress {
  /**
   * The response headers arrived: the file's full size when the server said (Content-Length,
   * or the total of a Content-Range), and the byte it continues from (0 when it starts over).
   * Called again on each attempt, so a restart takes the file's count back to `fromByte`.
   */
  started(expectedBytes: number | undefined, fromByte: number): void;
  /** `n` more bytes reached the disk (or stdout). */
  bytes(n: number): void;
}

/** What the progress display is told (src/media/progress.ts): per file started, bytes…, done. */
export interface ProgressSink {
  /** The run begins with `totalFiles` jobs. */
  start(totalFiles: number): void;
  /** See FileProgress.started. */
  fileStarted(job: MediaJob, expectedBytes: number | undefined, fromByte: number): void;
  /** See FileProgress.bytes. */
  fileBytes(job: MediaJob, n: number): void;
  /** The job is over: fetched, skipped or failed. */
  fileDone(outcome: JobOutcome): void;
  /** The run is over (finished, stopped or interrupted): the display goes. */
  stop(): void;
}

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
  /** Bytes of unfinished files left in their .part files by Ctrl-C. */
  let keptBytes = 0;
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  let next = 0;

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
    let fromByte = 0;
    const progress: FileProgress = {
      started: (expected, from) => {
        fromByte = from;
        sink?.fileStarted(job, expected, from);
      },
      bytes: (n) => {
        bytes += n;
        sink?.fileBytes(job, n);
      },
    };
    try {
      const result = await options.download(job, progress, signal);
      outcomes[index] = { job, status: 'fetched', bytes: result.received };
    } catch (err) {
      if (options.signal?.aborted) keptBytes += fromByte + bytes; // Ctrl-C: the file's bytes stay in its .part, for a rerun to resume
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
  if (options.signal?.aborted) throw interrupted(summary, keptBytes);
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

/** Two runs over parts of one set of jobs, as one summary (the parts ran one after the other). */
export function mergeSummaries(a: BulkSummary, b: BulkSummary): BulkSummary {
  return {
    total: a.total + b.total,
    fetched: a.fetched + b.fetched,
    skipped: a.skipped + b.skipped,
    failed: a.failed + b.failed,
    bytes: a.bytes + b.bytes,
    seconds: a.seconds + b.seconds,
    outcomes: [...a.outcomes, ...b.outcomes],
    stoppedEarly: a.stoppedEarly || b.stoppedEarly,
  };
}

/** Ctrl-C: the error says what finished before it, so a person knows what a rerun still has to do. */
function interrupted(summary: BulkSummary, kept: number): InterruptedError {
  const parts = [`fetched ${summary.fetched} of ${plural(summary.total, 'file')} (${formatBytes(summary.bytes)})`];
  if (summary.skipped > 0) parts.push(`${summary.skipped} ${summary.skipped === 1 ? 'was' : 'were'} already present`);
  if (summary.failed > 0) parts.push(`${summary.failed} failed`);
  if (kept > 0) parts.push(`${formatBytes(kept)} of unfinished files kept to resume`);
  return new InterruptedError(`Interrupted after it ${parts.join('; ')}.`, {
    hint: 'Run the same command again: complete files are skipped and partial ones resume.',
    details: { total: summary.total, fetched: summary.fetched, skipped: summary.skipped, failed: summary.failed, bytes: summary.bytes, kept },
  });
}

/** A byte count for people: 1.5 MB, 820 kB (SI units, like most download tools); at most 5 characters before the unit. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${Math.round(n)} B`;
  const units = ['kB', 'MB', 'GB', 'TB', 'PB'];
  let value = n / 1000;
  let u = 0;
  // 999.96 kB would round to "1000.0 kB": promote first.
  while (value >= 999.95 && u < units.length - 1) {
    value /= 1000;
    u++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[u]}`;
}

/** The human summary lines (stderr): counts, bytes, time, and each failure named. */
export function summaryLines(summary: BulkSummary): string[] {
  const rate = summary.seconds > 0 && summary.fetched > 0 ? ` (${formatBytes(Math.round(summary.bytes / summary.seconds))}/s)` : '';
  const lines = [
    `Fetched ${plural(summary.fetched, 'file')} (${formatBytes(summary.bytes)}) in ${summary.seconds.toFixed(1)} s${rate}; ${summary.skipped} already present; ${summary.failed} failed.`,
  ];
  for (const o of summary.outcomes) {
    // Messages may quote the server: one clean line each.
    if (o.status === 'failed') lines.push(`  failed: ${o.job.what}: ${oneLine(o.error?.message ?? 'unknown error')}`);
  }
  if (summary.stoppedEarly) lines.push('Stopped after the first failure (--fail-fast); a rerun resumes where it stopped.');
  return lines;
}

/** A failure a rerun may get past (the network, the service's load); not a 404 or the local disk. */
function transient(err: Error | undefined): boolean {
  return err instanceof NetworkError || err instanceof RateLimitError || err instanceof MalformedResponseError;
}

/**
 * The exit-7 error of a run where some files failed, worded for what happened: "2 of 5 files
 * failed; the other 3 are in place", "All 3 files failed", "The file failed"; the rerun hint
 * only when a rerun can help.
 */
export function partialFailure(summary: BulkSummary): PartialFailureError {
  const failures = summary.outcomes.filter((o) => o.status === 'failed');
  const inPlace = summary.fetched + summary.skipped;
  const notTried = summary.total - summary.outcomes.length;
  let message: string;
  if (inPlace === 0 && notTried === 0)
    message = summary.failed === 1 ? 'The file failed; nothing was saved.' : `All ${summary.failed} files failed; nothing was saved.`;
  else {
    message = `${summary.failed} of ${plural(summary.total, 'file')} failed`;
    const isAre = inPlace === 1 ? 'is' : 'are';
    if (inPlace > 0 && notTried === 0) message += inPlace === 1 ? '; the other is in place' : `; the other ${inPlace} are in place`;
    else if (inPlace > 0) message += `; ${inPlace} ${isAre} in place`;
    if (notTried > 0) message += `; ${notTried} ${notTried === 1 ? 'was' : 'were'} not tried (--fail-fast)`;
    message += '.';
  }
  const hint = failures.some((o) => transient(o.error)) ? 'Run the same command again: complete files are skipped and partial ones resume.' : undefined;
  return new PartialFailureError(message, {
    ...(hint ? { hint } : {}),
    details: { failed: failures.map((o) => ({ file: o.job.what, message: o.error?.message })) },
  });
}

/** The machine summary (--format json). */
export function summaryJson(summary: BulkSummary): Record<string, unknown> {
  return {
    fetched: summary.fetched,
    skipped: summary.skipped,
    failed: summary.failed,
    bytes: summary.bytes,
    seconds: Math.round(summary.seconds * 1000) / 1000,
    total: summary.total,
    stoppedEarly: summary.stoppedEarly,
    files: summary.outcomes.map((o) => ({
      id: o.job.exerciseId,
      kind: o.job.kind,
      name: o.job.name,
      path: o.job.path,
      status: o.status,
      bytes: o.bytes,
      ...(o.error ? { error: { message: o.error.message, ...(o.error instanceof CliError ? { code: o.error.code, exitCode: o.error.exitCode } : {}) } } : {}),
    })),
  };
}
