/**
 * What `-o <path>` names, and how it is written. A regular file (or a new name) is replaced atomically
 * through `<path>.part`. A FIFO, a character device or a terminal is written through (nothing is ever
 * renamed over a device), a FIFO opened without blocking so a signal ends a wait for its reader. A
 * directory, a socket or a block device is a usage error (exit 2).
 */
import { closeSync, constants, createWriteStream, openSync, realpathSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { InterruptedError, UsageError } from '../errors.js';
import { writeFailed } from '../util/write-all.js';
import { lstatOrUndefined } from '../util/real-dir.js';

export type OutputTarget = { kind: 'file'; path: string } | { kind: 'through'; path: string; special: 'fifo' | 'device' };

/** How `-o <path>` (resolved) is to be written; throws UsageError for what cannot take a media file. */
export function outputTarget(path: string): OutputTarget {
  let info: ReturnType<typeof statSync> | undefined;
  try {
    info = statSync(path); // through a link: a link to a device is written through like the device
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && isLink(path))
      throw new UsageError(`-o ${path} is a symbolic link to nothing; refusing to replace it.`, { hint: 'Remove the link or name another file.' });
    return { kind: 'file', path }; // a new file; any other failure, the download reports what the disk says
  }
  if (info.isFile()) return { kind: 'file', path: isLink(path) ? realpathSync(path) : path };
  if (info.isFIFO()) return { kind: 'through', path, special: 'fifo' };
  if (info.isCharacterDevice()) return { kind: 'through', path, special: 'device' };
  const what = info.isDirectory() ? 'a directory' : info.isSocket() ? 'a socket' : info.isBlockDevice() ? 'a block device' : 'not a file';
  throw new UsageError(`-o ${path} is ${what}; it takes a file, a FIFO, a character device or - for stdout.`, {
    hint: info.isDirectory() ? 'Use --dir for a folder.' : 'Name a file to save into.',
  });
}

function isLink(path: string): boolean {
  return lstatOrUndefined(path)?.isSymbolicLink() === true;
}

const POLL_MS = 100;

/** Opens the FIFO or device without blocking: a FIFO once a reader is there, checking `signal` between tries. */
async function openWithoutBlocking(target: Extract<OutputTarget, { kind: 'through' }>, signal: AbortSignal | undefined): Promise<number> {
  for (;;) {
    if (signal?.aborted) throw new InterruptedError();
    try {
      return openSync(target.path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      // Anything but a FIFO's missing reader is the disk's answer.
      if (target.special !== 'fifo' || (err as NodeJS.ErrnoException).code !== 'ENXIO') throw writeFailed(target.path, err);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** A writable stream through to the FIFO or device at `target.path`; errors are kept for closeThrough. */
export async function openThrough(target: Extract<OutputTarget, { kind: 'through' }>, signal?: AbortSignal): Promise<Writable> {
  const fd = await openWithoutBlocking(target, signal);
  let out: Writable;
  try {
    // A FIFO through a pipe handle, never a blocking thread.
    out = target.special === 'fifo' ? new Socket({ fd, readable: false, writable: true }) : createWriteStream('', { fd, autoClose: true });
  } catch (err) {
    closeSync(fd);
    throw writeFailed(target.path, err);
  }
  const failure: { error?: Error } = {};
  out.on('error', (err) => (failure.error ??= err));
  failures.set(out, failure);
  return out;
}

const failures = new WeakMap<Writable, { error?: Error }>();

/** Ends the stream and waits until every byte is handed over; a failed write throws WriteFailedError. */
export async function closeThrough(out: Writable, path: string): Promise<void> {
  const failure = failures.get(out) ?? {};
  if (!failure.error && !out.destroyed) {
    await new Promise<void>((resolve) => {
      out.once('close', resolve);
      out.once('error', () => resolve());
      out.end();
    });
  }
  if (failure.error) throw writeFailed(path, failure.error);
}

/** Lets go of the stream without waiting (after a failure or an interruption). */
export function abandonThrough(out: Writable): void {
  out.destroy();
}
