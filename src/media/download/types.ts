/** The downloader's contract: what it needs from the transport, the options a caller passes, what it answers, and its two sinks (a `.part` file, a stream). */
import type { CliError } from '../../errors.js';
import type { Settings } from '../../config/settings.js';
import type { Transport } from '../../http/transport.js';
import type { MediaKind } from '../../catalogue/media.js';
import type { RateLimit } from './rate-limit.js';
import type { RequestSlot } from '../request-slots.js';
import type { Validator } from './range-resume.js';

/** Counts a download's failure: throws `err` once the attempts are spent, else waits the backoff. */
export type CountFailure = (err: CliError, retryAfter?: string) => Promise<void>;

/** What the downloader needs from the Transport: one GET whose body comes chunk by chunk, and its error wording. */
export type MediaTransport = Pick<Transport, 'dispatchStream'> & Partial<Pick<Transport, 'streamError' | 'redact'>>;

export interface MediaTarget {
  kind: MediaKind;
  url: URL;
  /** How the file is named in messages, e.g. `image "start" of exercise 3_4_Sit-Up`. */
  what: string;
}

/** Who answers the media requests, for the words of a 404. */
export type MediaSource = { kind: 'service' } | { kind: 'sample' } | { kind: 'catalogue'; dir: string };

export interface DownloadOptions {
  transport: MediaTransport;
  /** --retries: attempts after a failure that brought no new bytes. */
  settings: Pick<Settings, 'retries'>;
  signal?: AbortSignal;
  onBytes?: (bytes: number) => void;
  /** Told when headers arrive: the full size when known, and the byte it resumes from. */
  onStart?: (expectedBytes: number | undefined, fromByte: number) => void;
  log?: (line: string) => void;
  /** Lines worth showing without --verbose; `log` when absent. */
  notice?: (line: string) => void;
  /** Largest file accepted; the kind's cap when absent. */
  maxBytes?: number;
  /** Longest wait for another process writing the same file. */
  lockWaitMs?: number;
  /** Who serves the media; the live service when absent. */
  source?: MediaSource;
  /** --limit-rate's budget, shared by the run. */
  rateLimit?: RateLimit;
  /** A bulk run's request slot, held for each request until its body is on disk. */
  requestSlot?: RequestSlot;
  /** The least average rate before a timeout; the transport's when absent. */
  minBytesPerSecond?: number;
  /** A complete file found at the final name once the file is ours is another process's work: kept, nothing fetched (skip-existing runs). */
  skipComplete?: boolean;
}

export interface DownloadResult {
  received: number;
  size: number;
  resumed: boolean;
  /** Another process completed the file while this one waited (nothing fetched). */
  completedElsewhere?: boolean;
}

export interface SinkWriter {
  /** Writes `chunks` after all earlier bytes; `done` once they are held, always asynchronously, once. One write at a time. */
  write(chunks: readonly Buffer[], done: (err?: Error | null) => void): void;
}

export interface ClaimOptions {
  waitMs: number;
  signal?: AbortSignal;
  onWait?: (line: string) => void;
  what: string;
  skipComplete?: boolean;
}

export interface Sink {
  /** Takes the file (a lock until release) before it is read or written; `completedMeanwhile`: another process finished it. */
  claim(kind: MediaKind, options: ClaimOptions): Promise<{ completedMeanwhile: boolean; size?: number }>;
  /** Lets go of the file and the lock; safe at any time, more than once. */
  release(): Promise<void>;
  /** Bytes held that a ranged request may continue, and their validator. */
  resumeState(url: URL): Promise<{ offset: number; validator?: Validator }>;
  remember(url: URL, validator: Validator | undefined): Promise<void>;
  /** A writer at `offset` (bytes after it dropped). */
  open(offset: number): Promise<SinkWriter>;
  /** Bytes held now: the resume point after a failure. */
  size(): number;
  finish(kind: MediaKind, total: number | undefined, what: string): Promise<number>;
  /** Drops bytes that failed verification. */
  discard(): Promise<void>;
}
