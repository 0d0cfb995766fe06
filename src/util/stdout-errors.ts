/**
 * Standard output that fails in words: a write to it that fails (a full disk under
 * `> file`, ENOSPC on /dev/full, EIO) throws WriteFailedError naming `stdout` from write()
 * itself (exit 6, like any failed write), not an "unexpected error" to report. A reader that has gone (EPIPE) stays the
 * stream's own business (the caller's broken-pipe handling), as does everything but write().
 */
import type { Writable } from 'node:stream';
import { WriteFailedError } from '../errors.js';
import { reasonOf } from './write-all.js';

type WriteCallback = (err?: Error | null) => void;

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
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean => {
    let written: boolean;
    try {
      written = typeof encoding === 'function' ? stream.write(chunk, encoding) : stream.write(chunk, encoding as BufferEncoding, callback);
    } catch (err) {
      throw outputWriteError(name, err) ?? err;
    }
    // A file or a device is written synchronously (SyncWriteStream): its failure is already the
    // stream's `errored` when write() returns false, its 'error' event still to come. Looked at
    // only then, so a stream written directly (util/direct-output.ts) is not created for it.
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
