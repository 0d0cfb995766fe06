/**
 * Standard output and error without their streams, for as long as nothing needs more than
 * write(). Creating process.stdout or process.stderr for a pipe or a socket loads Node's
 * stream machinery and node:net, about 10 ms on every start here, a good third of what a cache
 * hit costs beyond Node's own start (docs/performance.md); for a file or /dev/null, the stream
 * machinery alone (~3 ms). Into those, text is written
 * with write(2) straight away (as the shell-completion fast path does), in order and in full,
 * and the real stream is created only when something asks it for more (an 'error' listener,
 * a pipe into it, a progress meter), from then on taking every write. A terminal, or any
 * other character device, gets the real stream from the start.
 */
import { type Stats, fstatSync, statSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';

/**
 * True for a pipe, a socket, a regular file or /dev/null: never a terminal, and written with
 * write(2) as a stream would write it. Another character device may be a terminal, which only
 * node:tty can tell, so it gets the stream.
 */
export function writableDirectly(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return true;
    return stat.isCharacterDevice() && isDevNull(stat);
  } catch {
    return false;
  }
}

/** The same device as /dev/null (`> /dev/null`, a benchmark's ignored output); false where there is none. */
function isDevNull(stat: Stats): boolean {
  try {
    const devNull = statSync('/dev/null');
    return devNull.isCharacterDevice() && devNull.rdev === stat.rdev && devNull.ino === stat.ino && devNull.dev === stat.dev;
  } catch {
    return false;
  }
}

/** The system calls used, one object tests can patch to inject EAGAIN or EPIPE at the write itself. */
export const outputCalls = { writeSync };

/**
 * Writes all of `bytes` to `fd` now. Returns how many were written before the descriptor
 * would block (EAGAIN: a descriptor some other program left non-blocking); throws any other
 * error, EPIPE included.
 */
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

type WriteCallback = (err?: Error | null) => void;

/**
 * A stand-in for the stream on `fd` (1 or 2) that writes directly until anything but write()
 * is asked of it; then `openStream()` creates the real one, which answers everything from
 * then on. `onBrokenPipe` runs when the reader has gone (EPIPE), as the stream's 'error'
 * listener would. What EAGAIN leaves unwritten goes through the real stream, which waits for
 * the descriptor.
 */
export function directOutput(fd: number, openStream: () => Writable, onBrokenPipe: () => void): Writable {
  let stream: Writable | undefined;
  const real = (): Writable => (stream ??= openStream());
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean => {
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
  // Everything but write() is the real stream's, its methods bound to it, so listeners,
  // pipes and `instanceof` behave as they would on process.stdout itself.
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
