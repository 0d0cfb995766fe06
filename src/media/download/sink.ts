/**
 * Where a download's bytes go. Two sinks exist: a `.part` file renamed into place once verified
 * (file-sink.ts), and an open stream such as stdout (stream-sink.ts). The downloader
 * (download-file.ts) drives either the same way; the body pump (body-pump.ts) writes into a
 * SinkWriter.
 */
import type { MediaKind } from '../../catalogue/media.js';
import type { Validator } from './range-resume.js';

/** Writes batches of bytes, in order, each after everything written before. */
export interface SinkWriter {
  /**
   * Writes `chunk` after all earlier bytes; `done` is called once it is held (on disk, or taken
   * by the stream), always asynchronously, never twice. One write at a time: the next call
   * comes only after `done`. After `done` the writer keeps no reference to the chunk: the
   * caller reuses its memory for the next bytes (body-pump.ts).
   */
  write(chunk: Buffer, done: (err?: Error | null) => void): void;
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
