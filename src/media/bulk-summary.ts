/** What a bulk run reports: each job's outcome and progress as it happens, then the summary lines, the JSON, the exit-7 and Ctrl-C errors. */
import { CliError, InterruptedError, MalformedResponseError, NetworkError, PartialFailureError, RateLimitError } from '../errors.js';
import { formatBytes } from '../util/format-bytes.js';
import { oneLine, plural } from '../util/text.js';
import { partBytes, partPath } from './download/file-sink.js';
import type { MediaJob } from './jobs.js';

export interface JobOutcome {
  job: MediaJob;
  status: 'fetched' | 'skipped' | 'failed';
  /** Bytes received over the network for this file in this run. */
  bytes: number;
  /** Fetched by continuing a `.part`, not from the first byte. */
  resumed?: true;
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

/** What a download reports about its file, as it happens. */
export interface FileProgress {
  /** The headers arrived: the full size when known and the byte it continues from; again on each attempt, so a restart resets the count. */
  started(expectedBytes: number | undefined, fromByte: number): void;
  /** `n` more bytes reached the disk (or stdout). */
  bytes(n: number): void;
}

/** What the progress display is told. */
export interface ProgressSink {
  /** The run begins with the jobs known so far (a listing's first page). */
  start(totalFiles: number): void;
  /** `count` more jobs joined the run (the listing's next page). */
  addFiles(count: number): void;
  fileStarted(job: MediaJob, expectedBytes: number | undefined, fromByte: number): void;
  fileBytes(job: MediaJob, n: number): void;
  /** The job is over: fetched, skipped or failed. */
  fileDone(outcome: JobOutcome): void;
  /** The run is over: the display goes. */
  stop(): void;
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

/** The `.part` files left by the downloads to `paths` that Ctrl-C stopped. */
function keptParts(paths: readonly string[]): Array<{ path: string; bytes: number }> {
  return paths.flatMap((file) => {
    const bytes = partBytes(file);
    return bytes === undefined ? [] : [{ path: partPath(file), bytes }];
  });
}

/** "16.1 MB kept in …/demo.mp4.part, resumed by the next run" (several: the count, three named). */
function keptClause(kept: ReturnType<typeof keptParts>): string {
  const bytes = formatBytes(kept.reduce((sum, k) => sum + k.bytes, 0));
  const shown = kept.slice(0, 3).map((k) => oneLine(k.path));
  const where = kept.length === 1 ? shown[0] : `${kept.length} .part files (${shown.join(', ')}${kept.length > 3 ? ', …' : ''})`;
  return `${bytes} kept in ${where}, resumed by the next run`;
}

/** Ctrl-C during the one file of `-o <file>`: what its `.part` kept, when it kept anything. */
export async function interruptedFile(path: string, err: InterruptedError): Promise<InterruptedError> {
  const kept = keptParts([path]);
  if (kept.length === 0) return err;
  return new InterruptedError(`Interrupted; ${keptClause(kept)}.`, {
    hint: 'Run the same command again to resume it.',
    details: { kept },
  });
}

/** Ctrl-C: what finished and what was kept of the files cut off, so a person knows what a rerun still has to do. */
export async function interruptedError(summary: BulkSummary, cut: readonly MediaJob[]): Promise<InterruptedError> {
  const { total, fetched, skipped, failed, bytes } = summary;
  const parts = [`fetched ${fetched} of ${plural(total, 'file')} (${formatBytes(bytes)})`];
  if (skipped > 0) parts.push(`${skipped} ${skipped === 1 ? 'was' : 'were'} already present`);
  if (failed > 0) parts.push(`${failed} failed`);
  const kept = keptParts(cut.map((job) => job.path));
  if (kept.length > 0) parts.push(keptClause(kept));
  return new InterruptedError(`Interrupted after it ${parts.join('; ')}.`, {
    hint: 'Run the same command again: complete files are skipped and partial ones resume.',
    details: { total, fetched, skipped, failed, bytes, ...(kept.length > 0 ? { kept } : {}) },
  });
}

function resumedCount(summary: BulkSummary): number {
  return summary.outcomes.filter((o) => o.resumed === true).length;
}

/** The summary lines for people: counts, bytes, time, each failure named. */
export function summaryLines(summary: BulkSummary): string[] {
  const rate = summary.seconds > 0 && summary.fetched > 0 ? ` (${formatBytes(Math.round(summary.bytes / summary.seconds))}/s)` : '';
  const resumed = resumedCount(summary);
  // A resumed file's bytes are only this run's: said, so a small figure is no surprise.
  const resumedClause = resumed > 0 ? `; ${resumed} of them resumed from a .part` : '';
  const lines = [
    `Fetched ${plural(summary.fetched, 'file')} (${formatBytes(summary.bytes)}) in ${summary.seconds.toFixed(1)} s${rate}${resumedClause}; ${summary.skipped} already present; ${summary.failed} failed.`,
  ];
  for (const o of summary.outcomes) {
    // Messages may quote the server: one clean line each.
    if (o.status === 'failed') lines.push(`  failed: ${o.job.what}: ${oneLine(o.error?.message ?? 'unknown error')}`);
  }
  if (summary.stoppedEarly) lines.push('Stopped after the first failure (--fail-fast); a rerun resumes where it stopped.');
  return lines;
}

/** The exit-7 error, worded for what happened ("2 of 5 files failed; the other 3 are in place"); the rerun hint only when it can help. */
export function partialFailure(summary: BulkSummary): PartialFailureError {
  const failures = summary.outcomes.filter((o) => o.status === 'failed');
  const inPlace = summary.fetched + summary.skipped;
  const notTried = summary.total - summary.outcomes.length;
  let message: string;
  if (inPlace === 0 && notTried === 0)
    message = summary.failed === 1 ? 'The file failed; nothing was saved.' : `All ${summary.failed} files failed; nothing was saved.`;
  else {
    message = `${summary.failed} of ${plural(summary.total, 'file')} failed`;
    if (inPlace > 0 && notTried === 0) message += inPlace === 1 ? '; the other is in place' : `; the other ${inPlace} are in place`;
    else if (inPlace > 0) message += `; ${inPlace} ${inPlace === 1 ? 'is' : 'are'} in place`;
    if (notTried > 0) message += `; ${notTried} ${notTried === 1 ? 'was' : 'were'} not tried (--fail-fast)`;
    message += '.';
  }
  // A failure a rerun may get past (the network, the service's load); not a 404 or the local disk.
  const transient = (err: Error | undefined): boolean => err instanceof NetworkError || err instanceof RateLimitError || err instanceof MalformedResponseError;
  const hint = failures.some((o) => transient(o.error)) ? 'Run the same command again: complete files are skipped and partial ones resume.' : undefined;
  return new PartialFailureError(message, {
    ...(hint ? { hint } : {}),
    details: { failed: failures.map((o) => ({ file: o.job.what, message: o.error?.message })) },
  });
}

export function summaryJson(summary: BulkSummary): Record<string, unknown> {
  return {
    fetched: summary.fetched,
    resumed: resumedCount(summary),
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
      ...(o.resumed ? { resumed: true } : {}),
      bytes: o.bytes,
      ...(o.error ? { error: { message: o.error.message, ...(o.error instanceof CliError ? { code: o.error.code, exitCode: o.error.exitCode } : {}) } } : {}),
    })),
  };
}
