/**
 * The output streams: the process's own stdout and stderr (processStreams), and writing to any
 * stream with backpressure (write). A failed write to stdout (a full disk under `> file`,
 * /dev/full, EIO) is a WriteFailedError naming `stdout` (exit 6); a reader gone (EPIPE) is the
 * caller's broken-pipe handling; a fault on stderr never changes the command's exit code.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { IOStreams } from '../context.js';
import { WriteFailedError } from '../errors.js';
import { reasonOf } from '../util/write-all.js';

type WriteCallback = (err?: Error | null) => void;
type WriteFn = (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback) => boolean;

/** The error for a failed write on `name`; undefined for what is not a system error of writing (ours, EPIPE). */
export function outputWriteError(name: string, err: unknown): WriteFailedError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (err instanceof WriteFailedError || typeof code !== 'string' || code === 'EPIPE') return undefined;
  return new WriteFailedError(name, reasonOf(err), {
    cause: err,
    hint: code === 'ENOSPC' || code === 'EDQUOT' ? `Free some space where ${name} goes, or send it elsewhere, and run the command again.` : undefined,
  });
}

/**
 * `stream` with its write errors thrown as WriteFailedError naming `name`. Everything but write()
 * is the stream's own (methods bound to it), so listeners, pipes and `instanceof` behave as on
 * the stream itself.
 */
export function namedWriteErrors(stream: Writable, name: string): Writable {
  const write: WriteFn = (chunk, encoding, callback) => {
    let written: boolean;
    try {
      written = typeof encoding === 'function' ? stream.write(chunk, encoding) : stream.write(chunk, encoding as BufferEncoding, callback);
    } catch (err) {
      throw outputWriteError(name, err) ?? err;
    }
    // A file or a device is written synchronously: its failure is already the stream's
    // `errored` when write() returns false, its 'error' event still to come.
    const failed = written ? undefined : outputWriteError(name, stream.errored);
    if (failed) throw failed;
    return written;
  };
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The process's own streams, with their TTY facts and the terminal width; `onBrokenPipe` runs when stdout's reader has gone (`ids --all | head`). */
export function processStreams(onBrokenPipe: () => void): IOStreams {
  // Both streams always have an 'error' listener: an 'error' nobody listens to ends the process
  // as an uncaught exception (exit 1), whatever the command was doing.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') onBrokenPipe();
  });
  // A reader gone from stderr, or a full disk behind it, is no reason to stop the work or to
  // change its exit code: the messages are dropped.
  process.stderr.on('error', () => {});
  return {
    stdout: namedWriteErrors(process.stdout, 'stdout'),
    stderr: process.stderr,
    // Created on first access: only the commands that read stdin make it.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    // The same answer as process.stdin.isTTY, without creating the stream.
    get stdinIsTTY() {
      return isatty(0);
    },
    columns: process.stdout.columns > 0 ? process.stdout.columns : 80,
    ...(process.stdout.rows > 0 ? { rows: process.stdout.rows } : {}),
  };
}

/** Writes, waiting for 'drain' when the stream's buffer is full, so streamed output stays flat in memory. */
export function write(stream: Writable, text: string): Promise<void> | void {
  // events.once rejects on an 'error' before the 'drain', and takes its listeners off either way.
  if (!stream.write(text)) return once(stream, 'drain').then(() => {});
}
