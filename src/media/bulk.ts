/**
 * The bulk engine: a bounded pool of downloads. A complete file on disk is skipped without a request;
 * one file's failure does not stop the others (unless fail-fast), but errors that doom every file
 * (401/403, the rate limit, a full disk, Ctrl-C) stop the run at once.
 */
import { AuthError, BudgetExceededError, InterruptedError, RateLimitError, WriteFailedError } from '../errors.js';
import type { DownloadResult } from './download/types.js';
import type { MediaJob } from './jobs.js';
import { type BulkSummary, type FileProgress, type JobOutcome, type ProgressSink, interruptedError } from './bulk-summary.js';
import { looksComplete } from './verify.js';
import { JobQueue, type QueuedJob } from './job-queue.js';
import { type RequestSlot, RequestSlots } from './request-slots.js';

export type { BulkSummary, FileProgress, JobOutcome, ProgressSink } from './bulk-summary.js';

export interface BulkOptions {
  concurrency: number;
  skipExisting: boolean;
  failFast: boolean;
  signal?: AbortSignal;
  /**
   * Fetches one job; `signal` also fires when the run stops early. Each request holds `slot` until its
   * body is on disk; a slot held at a failure is given back once the failure is handled.
   */
  download(job: MediaJob, progress: FileProgress, signal: AbortSignal, slot: RequestSlot): Promise<DownloadResult>;
  progress?: ProgressSink;
}

/** Disk failures no other file escapes. */
const DISK_FATAL = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

/** Errors after which no other file can succeed either (a full disk: exit 6 at once). */
export function isFatal(err: unknown): boolean {
  if (err instanceof WriteFailedError) return DISK_FATAL.has(String((err.cause as { code?: unknown } | undefined)?.code));
  return err instanceof AuthError || err instanceof RateLimitError || err instanceof InterruptedError;
}

/** The jobs of a run: all known at the start, or in batches as a listing's pages arrive, feeding the same pool. */
export type JobSource = readonly MediaJob[] | AsyncIterable<readonly MediaJob[]>;

/**
 * Hands the source's batches to the queue while it is short of one batch (the pool busy, memory about
 * two batches). A failure of the source is returned after the queue ended, so queued jobs still run.
 */
async function feed(source: JobSource, queue: JobQueue, stopped: () => boolean): Promise<unknown> {
  if (!(Symbol.asyncIterator in source)) {
    queue.push(source);
    queue.end();
    return undefined;
  }
  const batches = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await batches.next();
      if (step.done === true || stopped()) break;
      queue.push(step.value);
      await queue.drainedTo(step.value.length);
      if (stopped()) break;
    }
    return undefined;
  } catch (err) {
    return err;
  } finally {
    queue.end();
    void batches.return?.(undefined)?.catch(() => {});
  }
}

export async function runBulk(source: JobSource, options: BulkOptions): Promise<BulkSummary> {
  const started = performance.now();
  const outcomes: Array<JobOutcome | undefined> = [];
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  /** Jobs begun without an outcome yet: those Ctrl-C stops may have kept a `.part`. */
  const begun = new Set<MediaJob>();
  const queue = new JobQueue();
  const slots = new RequestSlots(Math.max(1, options.concurrency));
  const stopped = (): boolean => stop.signal.aborted || options.signal?.aborted === true || fatal !== undefined;
  // Workers waiting for a page must not wait through a stop.
  const onAbort = (): void => queue.close();
  signal.addEventListener('abort', onAbort, { once: true });

  const sink = options.progress;
  let announced = 0;
  const announce = (): void => {
    if (!sink || queue.total === announced) return;
    if (announced === 0) sink.start(queue.total);
    else sink.addFiles(queue.total - announced);
    announced = queue.total;
  };

  const runOne = async ({ job, index }: QueuedJob): Promise<void> => {
    if (options.skipExisting && (await looksComplete(job.kind, job.path))) {
      outcomes[index] = { job, status: 'skipped', bytes: 0 };
      sink?.fileDone(outcomes[index]);
      return;
    }
    let bytes = 0;
    begun.add(job);
    const progress: FileProgress = {
      started: (expected, fromByte) => sink?.fileStarted(job, expected, fromByte),
      bytes: (n) => {
        bytes += n;
        sink?.fileBytes(job, n);
      },
    };
    const slot = slots.slot();
    try {
      const result = await options.download(job, progress, signal, slot);
      outcomes[index] = { job, status: 'fetched', bytes: result.received, ...(result.resumed ? { resumed: true as const } : {}) };
    } catch (err) {
      if (stop.signal.aborted && !options.signal?.aborted) return; // cancelled by the early stop: not its failure
      if (err instanceof BudgetExceededError || isFatal(err)) {
        fatal ??= err;
        // Past the budget no request may go out; those already sent (and counted) finish.
        if (err instanceof BudgetExceededError) queue.close();
        else stop.abort();
        return;
      }
      outcomes[index] = { job, status: 'failed', bytes, error: err instanceof Error ? err : new Error(String(err)) };
      if (options.failFast) stop.abort();
    } finally {
      slot.release();
    }
    begun.delete(job);
    sink?.fileDone(outcomes[index]);
  };

  const worker = async (): Promise<void> => {
    while (!stopped()) {
      const next = await queue.take();
      if (next === undefined || stopped()) return;
      announce();
      await runOne(next);
    }
  };

  let sourceError: unknown;
  try {
    const feeding = feed(source, queue, stopped);
    // Two downloads per request slot: one fetching, one getting its file ready.
    await Promise.all(Array.from({ length: 2 * Math.max(1, options.concurrency) }, worker));
    queue.close();
    sourceError = stopped() ? undefined : await feeding;
  } finally {
    signal.removeEventListener('abort', onAbort);
    sink?.stop();
  }
  const summary = summarise(queue.total, outcomes, started);
  if (options.signal?.aborted) throw await interruptedError(summary, [...begun]);
  if (fatal instanceof BudgetExceededError) {
    const kept = summary.fetched + summary.skipped;
    const hint = `Stopped at the budget with ${kept} of ${queue.total} files in place; run again to continue (files already complete are skipped). ${fatal.hint ?? ''}`;
    throw new BudgetExceededError(fatal, { hint: hint.trim() });
  }
  if (fatal !== undefined) throw fatal;
  if (sourceError !== undefined) throw sourceError;
  return summary;
}

function summarise(total: number, outcomes: ReadonlyArray<JobOutcome | undefined>, started: number): BulkSummary {
  const done = outcomes.filter((o): o is JobOutcome => o !== undefined);
  const count = (status: JobOutcome['status']): number => done.filter((o) => o.status === status).length;
  return {
    total,
    fetched: count('fetched'),
    skipped: count('skipped'),
    failed: count('failed'),
    bytes: done.reduce((sum, o) => sum + o.bytes, 0),
    seconds: (performance.now() - started) / 1000,
    outcomes: done,
    stoppedEarly: done.length < total,
  };
}
