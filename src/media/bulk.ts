/**
 * The bulk engine: a bounded pool of downloads over media jobs. A complete file already on
 * disk is skipped without any request; one file's failure does not stop the others (unless
 * fail-fast); errors that doom every other file too — the key or plan refused (401/403), the
 * rate limit spent, Ctrl-C — stop the whole run at once.
 */
import { AuthError, CliError, InterruptedError, RateLimitError } from '../errors.js';
import type { DownloadResult } from './download-file.js';
import type { MediaJob } from './jobs.js';
import { looksComplete } from './verify.js';
import { plural } from '../util/text.js';

export type JobStatus = 'fetched' | 'skipped' | 'failed';

export interface JobOutcome {
  job: MediaJob;
  status: JobStatus;
  /** Bytes received over the network for this file in this run. */
  bytes: number;
  error?: Error;
}

export interface BulkSummary {
  fetched: number;
  skipped: number;
  failed: number;
  bytes: number;
  seconds: number;
  outcomes: JobOutcome[];
  /** True when --fail-fast stopped the run before every job had its turn. */
  stoppedEarly: boolean;
}

/** What the progress display is told; see progress.ts. */
export interface ProgressSink {
  start(totalFiles: number): void;
  bytes(n: number): void;
  done(outcome: JobOutcome): void;
  stop(): void;
}

export interface BulkOptions {
  concurrency: number;
  skipExisting: boolean;
  failFast: boolean;
  signal?: AbortSignal;
  /** Fetches one job; `signal` also fires when the run stops early. */
  download(job: MediaJob, onBytes: (n: number) => void, signal: AbortSignal): Promise<DownloadResult>;
  progress?: ProgressSink;
}

/** Errors after which no other file can succeed either. */
export function isFatal(err: unknown): boolean {
  return err instanceof AuthError || err instanceof RateLimitError || err instanceof InterruptedError;
}

export async function runBulk(jobs: readonly MediaJob[], options: BulkOptions): Promise<BulkSummary> {
  const started = performance.now();
  const outcomes: JobOutcome[] = new Array(jobs.length);
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  let next = 0;

  options.progress?.start(jobs.length);

  const runOne = async (index: number): Promise<void> => {
    const job = jobs[index]!;
    if (options.skipExisting && (await looksComplete(job.kind, job.path))) {
      outcomes[index] = { job, status: 'skipped', bytes: 0 };
      options.progress?.done(outcomes[index]);
      return;
    }
    let bytes = 0;
    try {
      const result = await options.download(
        job,
        (n) => {
          bytes += n;
          options.progress?.bytes(n);
        },
        signal,
      );
      outcomes[index] = { job, status: 'fetched', bytes: result.received };
    } catch (err) {
      if (stop.signal.aborted && !options.signal?.aborted) return; // cancelled by the early stop: not its failure
      if (isFatal(err)) {
        fatal ??= err;
        stop.abort();
        return;
      }
      outcomes[index] = { job, status: 'failed', bytes, error: err instanceof Error ? err : new Error(String(err)) };
      if (options.failFast) stop.abort();
    }
    options.progress?.done(outcomes[index]!);
  };

  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted && !options.signal?.aborted && next < jobs.length) {
      await runOne(next++);
    }
  };

  try {
    const size = Math.max(1, Math.min(options.concurrency, jobs.length));
    await Promise.all(Array.from({ length: size }, worker));
  } finally {
    options.progress?.stop();
  }
  if (options.signal?.aborted) throw new InterruptedError();
  if (fatal !== undefined) throw fatal;

  const done = outcomes.filter((o): o is JobOutcome => o !== undefined);
  // Only --fail-fast leaves jobs without an outcome once the run was neither interrupted nor stopped by a fatal error.
  const stoppedEarly = done.length < jobs.length;
  return {
    fetched: done.filter((o) => o.status === 'fetched').length,
    skipped: done.filter((o) => o.status === 'skipped').length,
    failed: done.filter((o) => o.status === 'failed').length,
    bytes: done.reduce((sum, o) => sum + o.bytes, 0),
    seconds: (performance.now() - started) / 1000,
    outcomes: done,
    stoppedEarly,
  };
}

/** A byte count for people: 1.5 MB, 820 kB (SI units, like most download tools). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 'B';
  for (const u of units) {
    if (value < 1000) break;
    value /= 1000;
    unit = u;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`;
}

/** The human summary lines (stderr): counts, bytes, time, and each failure named. */
export function summaryLines(summary: BulkSummary): string[] {
  const rate = summary.seconds > 0 ? ` (${formatBytes(Math.round(summary.bytes / summary.seconds))}/s)` : '';
  const lines = [
    `Fetched ${plural(summary.fetched, 'file')} (${formatBytes(summary.bytes)}) in ${summary.seconds.toFixed(1)} s${summary.fetched > 0 ? rate : ''}; skipped ${summary.skipped} already present; failed ${summary.failed}.`,
  ];
  for (const o of summary.outcomes) {
    if (o.status === 'failed') lines.push(`  failed: ${o.job.what}: ${o.error?.message ?? 'unknown error'}`);
  }
  if (summary.stoppedEarly) lines.push('Stopped after the first failure (--fail-fast); a rerun resumes where it stopped.');
  return lines;
}

/** The machine summary (--format json). */
export function summaryJson(summary: BulkSummary): Record<string, unknown> {
  return {
    fetched: summary.fetched,
    skipped: summary.skipped,
    failed: summary.failed,
    bytes: summary.bytes,
    seconds: Math.round(summary.seconds * 1000) / 1000,
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
