/** What the bulk engine (bulk.ts) reports: each job's outcome, the run's summary, and the progress events as they happen. */
import type { MediaJob } from './jobs.js';

export interface JobOutcome {
  job: MediaJob;
  status: 'fetched' | 'skipped' | 'failed';
  /** Bytes received over the network for this file in this run. */
  bytes: number;
  /** Fetched by continuing a `.part` an earlier attempt or run left, not from the first byte. */
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

/** What the progress display is told (src/output/progress-meter.ts): per file started, bytes…, done. */
export interface ProgressSink {
  /** The run begins with `totalFiles` jobs (those known so far: a listing's first page). */
  start(totalFiles: number): void;
  /** `count` more jobs joined the run (the listing's next page). */
  addFiles(count: number): void;
  /** See FileProgress.started. */
  fileStarted(job: MediaJob, expectedBytes: number | undefined, fromByte: number): void;
  /** See FileProgress.bytes. */
  fileBytes(job: MediaJob, n: number): void;
  /** The job is over: fetched, skipped or failed. */
  fileDone(outcome: JobOutcome): void;
  /** The run is over (finished, stopped or interrupted): the display goes. */
  stop(): void;
}
