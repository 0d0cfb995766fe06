/**
 * The downloader's contract: what it needs from the transport, what it fetches, the options a
 * caller passes and what it answers (download-file.ts re-exports these for its callers); and
 * where the bytes go. Two sinks exist: a `.part` file renamed into place once verified
 * (file-sink.ts), and an open stream such as stdout (stream-sink.ts). The downloader drives
 * either the same way; the body pump (body-pump.ts) writes into a SinkWriter.
 */
import type { CliError } from '../../errors.js';
import type { Settings } from '../../config/settings.js';
import type { Transport } from '../../http/transport.js';
import type { MediaKind } from '../../catalogue/media.js';
import type { RateLimit } from './rate-limit.js';
import type { RequestSlot } from '../request-slots.js';
import type { Validator } from './range-resume.js';

/** Counts a download's failure (the retry budget): throws `err` once the attempts are spent, else waits the backoff. */
export type CountFailure = (err: CliError, retryAfter?: string) => Promise<void>;

/** What the downloader needs from the Transport: one GET attempt whose body is handed over chunk by chunk, and its error wording. */
export type MediaTransport = Pick<Transport, 'dispatchStream'> & Partial<Pick<Transport, 'streamError' | 'redact'>>;

export interface MediaTarget {
  kind: MediaKind;
  url: URL;
  /** How the file is named in messages, e.g. `image "start" of exercise 3_4_Sit-Up`. */
  what: string;
}

/**
 * Who answers the media requests, for the words of a 404: the live service, the shipped sample
 * (--sandbox), or a catalogue directory (--catalogue, e.g. one `exercises mirror` wrote).
 */
export type MediaSource = { kind: 'service' } | { kind: 'sample' } | { kind: 'catalogue'; dir: string };

export interface DownloadOptions {
  transport: MediaTransport;
  /** The run's settings it follows: --retries, the attempts after a failure that brought no new bytes. */
  settings: Pick<Settings, 'retries'>;
  signal?: AbortSignal;
  /** Called with each chunk's size as it arrives. */
  onBytes?: (bytes: number) => void;
  /** Called when a response's headers arrive: the file's full size when known, and the byte it resumes from. */
  onStart?: (expectedBytes: number | undefined, fromByte: number) => void;
  /** --verbose lines. */
  log?: (line: string) => void;
  /** Lines worth showing without --verbose (a file another process is writing); `log` when absent. */
  notice?: (line: string) => void;
  /** Largest file accepted, in bytes; MEDIA_SIZE_CAP_BYTES of the kind when absent. */
  maxBytes?: number;
  /** Longest wait for another process writing the same file; MEDIA_LOCK_WAIT_MS when absent. */
  lockWaitMs?: number;
  /** Who serves the media; the live service when absent. */
  source?: MediaSource;
  /** --limit-rate: the command's one bandwidth budget, shared with every other download of the run. */
  rateLimit?: RateLimit;
  /** A bulk run's request slot (request-slots.ts): taken for each request until its body is on disk. */
  requestSlot?: RequestSlot;
  /** The least average rate before the download times out (rate-limit.ts mediaMinRate); the transport's when absent. */
  minBytesPerSecond?: number;
}

export interface DownloadResult {
  /** Bytes received over the network in this run. */
  received: number;
  /** Size of the complete file. */
  size: number;
  /** Whether bytes from an earlier attempt or run were kept. */
  resumed: boolean;
  /** True when another process completed the file while this one waited for it (nothing fetched). */
  completedElsewhere?: boolean;
}

/** Writes bytes, in order, each write after everything written before. */
export interface SinkWriter {
  /**
   * Writes `chunks`, in order, after all earlier bytes; `done` is called once they are held (on
   * disk, or taken by the stream), always asynchronously, never twice. One write at a time: the
   * next call comes only after `done`.
   */
  write(chunks: readonly Buffer[], done: (err?: Error | null) => void): void;
}

/** How long to wait for a file that another process is writing, and whom to tell. */
export interface ClaimOptions {
  waitMs: number;
  signal?: AbortSignal;
  /** Told once when the file is busy and the download starts waiting. */
  onWait?: (line: string) => void;
  what: string;
}

export interface Sink {
  /**
   * Takes the file for this process (a per-file lock held until release) before anything of it
   * is read or written. `completedMeanwhile` is true when another process held it and a new
   * complete file is now in place: nothing is left to do.
   */
  claim(kind: MediaKind, options: ClaimOptions): Promise<{ completedMeanwhile: boolean; size?: number }>;
  /** Lets go of the file handle and the lock; safe to call at any time, more than once. */
  release(): Promise<void>;
  /** Bytes already held that a ranged request may continue from, and their validator. */
  resumeState(url: URL): Promise<{ offset: number; validator?: Validator }>;
  /** Remembers (or forgets) the validator of a fresh 200 answer. */
  remember(url: URL, validator: Validator | undefined): Promise<void>;
  /** A writer positioned at `offset` (the bytes before it are kept, those after dropped). */
  open(offset: number): Promise<SinkWriter>;
  /** Bytes held now (after a failure, the resume point): the offset opened at plus what was written. */
  size(): number;
  /** Verifies and publishes the complete bytes; returns their size. */
  finish(kind: MediaKind, total: number | undefined, what: string): Promise<number>;
  /** Drops bytes that failed verification, so nothing resumes from them. */
  discard(): Promise<void>;
}
