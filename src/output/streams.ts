/**
 * The output streams: the process's own stdout and stderr as a run gets them (processStreams),
 * and writing to any stream with backpressure (write).
 *
 * Into a pipe, a socket, a file or /dev/null, text is written with write(2), in order and in
 * full, until something asks the stream for more than write() (a listener, a pipe, a meter):
 * creating process.stdout there loads Node's stream machinery and node:net, ~10 ms on every
 * start, a third of a cache hit's cost beyond Node's own (docs/performance.md). A terminal, or
 * any other character device, gets the real stream from the start.
 *
 * A failed write to stdout (a full disk under `> file`, /dev/full, EIO) throws WriteFailedError
 * naming `stdout` (exit 6), not an "unexpected error"; a reader gone (EPIPE) stays the caller's
 * broken-pipe handling.
 */
import { once } from 'node:events';
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { isatty } from 'node:tty';
import type { IOStreams } from '../context.js';
import { WriteFailedError } from '../errors.js';
import { reasonOf } from '../util/write-all.js';

type WriteCallback = (err?: Error | null) => void;
type WriteFn = (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback) => boolean;

/** True for a pipe, a socket, a regular file or /dev/null; another character device may be a terminal, which only node:tty can tell. */
export function writableDirectly(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return true;
    // The same device as /dev/null (`> /dev/null`, a benchmark's ignored output); false where there is none.
    const devNull = stat.isCharacterDevice() ? statSync('/dev/null') : undefined;
    return devNull?.isCharacterDevice() === true && devNull.rdev === stat.rdev && devNull.ino === stat.ino && devNull.dev === stat.dev;
  } catch {
    return false;
  }
}

/** The system calls used, one object tests can patch to inject EAGAIN or EPIPE at the write itself. */
export const outputCalls = { writeSync };

/** Writes all of `bytes` to `fd` now; returns how many went before EAGAIN (a descriptor another program left non-blocking); throws the rest. */
export function writeAllNow(fd: number, bytes: Uint8Array): number {
  let done = 0;
  while (done < bytes.length) {
    try {
      done += outputCalls.writeSync(fd, bytes, done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return done;
      throw err;
    }
  }
  return done;
}

/**
 * A stand-in for the stream on `fd` (1 or 2) that writes directly until anything but write() is
 * asked of it; then `openStream()` creates the real one. `onBrokenPipe` runs on EPIPE, as the
 * stream's 'error' listener would; what EAGAIN leaves unwritten goes through the real stream.
 */
export function directOutput(fd: number, openStream: () => Writable, onBrokenPipe: () => void): Writable {
  let stream: Writable | undefined;
  const real = (): Writable => (stream ??= openStream());
  const write: WriteFn = (chunk, encoding, callback) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (stream !== undefined) return stream.write(chunk, typeof encoding === 'string' ? encoding : 'utf8', done);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
    let written: number;
    try {
      written = writeAllNow(fd, bytes);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPIPE') throw err;
      onBrokenPipe();
      return false;
    }
    if (written < bytes.length) return real().write(bytes.subarray(written), done);
    if (done) process.nextTick(done);
    return true;
  };
  return withWrite(real, write);
}

/**
 * `real()` with its write() replaced: everything else is the real stream's, its methods bound
 * to it, so listeners, pipes and `instanceof` behave as they would on process.stdout itself.
 */
function withWrite(real: () => Writable, write: WriteFn): Writable {
  return new Proxy({} as Writable, {
    get(_, key) {
      if (key === 'write') return write;
      const target = real();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => key === 'write' || Reflect.has(real(), key),
    getPrototypeOf: (): object | null => Object.getPrototypeOf(real()) as object | null,
  });
}

/** The error for a failed write on `name`; undefined for what is not a system error of writing (ours, EPIPE). */
export function outputWriteError(name: string, err: unknown): WriteFailedError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (err instanceof WriteFailedError || typeof code !== 'string' || code === 'EPIPE') return undefined;
  return new WriteFailedError(name, reasonOf(err), {
    cause: err,
    hint: code === 'ENOSPC' || code === 'EDQUOT' ? `Free some space where ${name} goes, or send it elsewhere, and run the command again.` : undefined,
  });
}

/** `stream` with its write errors thrown as WriteFailedError naming `name` (see the module comment). */
export function namedWriteErrors(stream: Writable, name: string): Writable {
  const write: WriteFn = (chunk, encoding, callback) => {
    let written: boolean;
    try {
      written = typeof encoding === 'function' ? stream.write(chunk, encoding) : stream.write(chunk, encoding as BufferEncoding, callback);
    } catch (err) {
      throw outputWriteError(name, err) ?? err;
    }
    // A file or a device is written synchronously (SyncWriteStream): its failure is already the
    // stream's `errored` when write() returns false, its 'error' event still to come. Looked at
    // only then, so a stream written directly (directOutput) is not created for it.
    const failed = written ? undefined : outputWriteError(name, stream.errored);
    if (failed) throw failed;
    return written;
  };
  return withWrite(() => stream, write);
}

const ignoreBrokenPipe = (): void => {};

/** The process's own streams, with their TTY facts and the terminal width; `onBrokenPipe` runs when stdout's reader has gone (`ids --all | head`). */
export function processStreams(onBrokenPipe: () => void): IOStreams {
  const stdoutDirect = writableDirectly(1);
  const stderrDirect = writableDirectly(2);
  const openStdout = (): Writable =>
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') onBrokenPipe();
    });
  return {
    // A failed write (a full disk, /dev/full) is an error naming stdout: namedWriteErrors.
    stdout: namedWriteErrors(stdoutDirect ? directOutput(1, openStdout, onBrokenPipe) : openStdout(), 'stdout'),
    // A reader gone from stderr is no reason to stop the work: its messages are dropped.
    stderr: stderrDirect ? directOutput(2, () => process.stderr, ignoreBrokenPipe) : process.stderr,
    // process.stdin is created on first access, and for a file or /dev/null that loads
    // fs streams, fs/promises and readline (~2 ms): only commands that read stdin pay for it.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: !stdoutDirect && process.stdout.isTTY === true,
    stderrIsTTY: !stderrDirect && process.stderr.isTTY === true,
    // Same answer as process.stdin.isTTY, without creating the stream; asked only by the
    // commands that read stdin, so node:tty is loaded by them alone (~1.3 ms).
    get stdinIsTTY() {
      return isatty(0);
    },
    columns: !stdoutDirect && process.stdout.columns > 0 ? process.stdout.columns : 80,
    ...(!stdoutDirect && process.stdout.rows > 0 ? { rows: process.stdout.rows } : {}),
  };
}

/** Writes, waiting for 'drain' when the stream's buffer is full, so streamed output stays flat in memory. */
export function write(stream: Writable, text: string): Promise<void> | void {
  // events.once rejects on an 'error' before the 'drain', and takes its listeners off either way.
  if (!stream.write(text)) return once(stream, 'drain').then(() => {});
}
