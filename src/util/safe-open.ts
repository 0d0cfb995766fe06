/**
 * The one rule for opening a file whose path comes from a catalogue, the cache or the user's data:
 * open without blocking (a FIFO with no writer cannot hang it), fstat the descriptor, accept only a
 * regular file within its bound, then read. Anything else is a RefusedFileError naming the path;
 * a missing file keeps its ENOENT.
 */
import { type Stats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/** Flags of every open here: read-only, never blocking on a FIFO, never becoming our controlling terminal. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

function openFlags(options: SafeOpenOptions): number {
  return options.noFollow ? OPEN_FLAGS | NO_FOLLOW : OPEN_FLAGS;
}

/** A link refused by O_NOFOLLOW (ELOOP) becomes the refusal it is. */
function linkRefusal(path: string, err: unknown): unknown {
  return (err as NodeJS.ErrnoException).code === 'ELOOP' ? new RefusedFileError(path, 'not a regular file', 'is a symbolic link, not a regular file') : err;
}

export interface SafeOpenOptions {
  /** The size bound of the file's kind: a larger file is refused before a byte is read. */
  maxBytes: number;
  /** Refuse a symbolic link too (O_NOFOLLOW), as 'not a regular file': for a store whose files only we write. */
  noFollow?: boolean;
}

/** A file refused by the rule above. */
export class RefusedFileError extends Error {
  readonly code = 'EREFUSED';
  readonly path: string;
  readonly reason: 'not a regular file' | 'too large';

  constructor(path: string, reason: RefusedFileError['reason'], detail: string) {
    super(`${path} ${detail}`);
    this.name = 'RefusedFileError';
    this.path = path;
    this.reason = reason;
  }
}

const KINDS = [
  ['isFIFO', 'a FIFO'],
  ['isCharacterDevice', 'a character device'],
  ['isBlockDevice', 'a block device'],
  ['isDirectory', 'a directory'],
  ['isSocket', 'a socket'],
] as const;

/** The descriptor's Stats when they say the file may be read; else throws the refusal. */
function checked(path: string, stat: Stats, maxBytes: number): Stats {
  if (!stat.isFile())
    throw new RefusedFileError(path, 'not a regular file', `is ${KINDS.find(([is]) => stat[is]())?.[1] ?? 'not a plain file'}, not a regular file`);
  if (stat.size > maxBytes) throw tooLarge(path, stat.size, maxBytes);
  return stat;
}

function tooLarge(path: string, size: number, maxBytes: number): RefusedFileError {
  return new RefusedFileError(path, 'too large', `holds ${size} bytes, over the ${maxBytes}-byte bound for it`);
}

/** An open descriptor of a regular file within the bound, and its Stats; the caller closes it. */
export function openRegularFileSync(path: string, options: SafeOpenOptions): { fd: number; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(path, openFlags(options));
  } catch (err) {
    throw linkRefusal(path, err);
  }
  try {
    return { fd, stat: checked(path, fstatSync(fd), options.maxBytes) };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** An open FileHandle of a regular file within the bound, and its Stats; the caller closes it. */
export async function openRegularFile(path: string, options: SafeOpenOptions): Promise<{ handle: FileHandle; stat: Stats }> {
  const handle = await open(path, openFlags(options)).catch((err: unknown) => {
    throw linkRefusal(path, err);
  });
  try {
    return { handle, stat: checked(path, await handle.stat(), options.maxBytes) };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

type ReadAt = [buffer: Buffer, offset: number, length: number, position: number];

/**
 * The bytes of a file as read, for the sync and the async reader alike: yields where each read
 * goes and takes the count read; grows the buffer while the file grows, never past the bound.
 */
function* boundedBytes(path: string, size: number, maxBytes: number): Generator<ReadAt, Buffer, number> {
  let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let done = 0;
  for (let n: number; (n = yield [buffer, done, buffer.length - done, done]) > 0;) {
    done += n;
    if (done > maxBytes) throw tooLarge(path, done, maxBytes);
    if (done === buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
      buffer.copy(bigger);
      buffer = bigger;
    }
  }
  return buffer.subarray(0, done);
}

/** The whole of a regular file within the bound. */
export function readRegularFileSync(path: string, options: SafeOpenOptions): Buffer {
  const { fd, stat } = openRegularFileSync(path, options);
  try {
    const read = boundedBytes(path, stat.size, options.maxBytes);
    let step = read.next();
    while (!step.done) step = read.next(readSync(fd, ...step.value));
    return step.value;
  } finally {
    closeSync(fd);
  }
}

/** The whole of a regular file within the bound, read asynchronously. */
export async function readRegularFile(path: string, options: SafeOpenOptions): Promise<Buffer> {
  const { handle, stat } = await openRegularFile(path, options);
  try {
    const read = boundedBytes(path, stat.size, options.maxBytes);
    let step = read.next();
    while (!step.done) step = read.next((await handle.read(...step.value)).bytesRead);
    return step.value;
  } finally {
    await handle.close().catch(() => {});
  }
}
