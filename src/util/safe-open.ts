/**
 * The one rule for opening a file whose path comes from a catalogue, the cache directory or the
 * user's data: open it without blocking (O_NONBLOCK, so a FIFO with no writer cannot hang the
 * open, nor starve libuv's thread pool in a server), fstat the descriptor (not the path, which
 * may change in between), accept only a regular file within the bound of its kind, and only
 * then read. Anything else is refused with RefusedFileError naming the path, which the caller
 * turns into the error of its kind (a `Cannot draw …` line, a 404, CatalogueError…). A file
 * that does not exist keeps its ENOENT (callers often take that as "none yet").
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

/** A file refused by the rule above: `path` is what the caller passed, `reason` says why in words. */
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

/** What the descriptor's Stats say of the file: nothing when it may be read, else the refusal. */
function refusal(path: string, stat: Stats, maxBytes: number): RefusedFileError | undefined {
  if (!stat.isFile()) return new RefusedFileError(path, 'not a regular file', `is ${kindOf(stat)}, not a regular file`);
  if (stat.size > maxBytes) return tooLarge(path, stat.size, maxBytes);
  return undefined;
}

function tooLarge(path: string, size: number, maxBytes: number): RefusedFileError {
  return new RefusedFileError(path, 'too large', `holds ${size} bytes, over the ${maxBytes}-byte bound for it`);
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  return 'not a plain file';
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
    const stat = fstatSync(fd);
    const refused = refusal(path, stat, options.maxBytes);
    if (refused) throw refused;
    return { fd, stat };
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
    const stat = await handle.stat();
    const refused = refusal(path, stat, options.maxBytes);
    if (refused) throw refused;
    return { handle, stat };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}

/** The bytes of a file as read: a buffer of fstat's size, grown while the file grows, never past the bound (one byte more shows it grew past). */
class BoundedBytes {
  private buffer: Buffer;
  private done = 0;

  constructor(
    private readonly path: string,
    size: number,
    private readonly maxBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  }

  /** Where the next read goes: the buffer, the offset (also the file position) and the room left. */
  next(): [buffer: Buffer, offset: number, length: number, position: number] {
    return [this.buffer, this.done, this.buffer.length - this.done, this.done];
  }

  /** Counts a read of `n` bytes; true once the file has ended (a read of 0). */
  took(n: number): boolean {
    if (n === 0) return true;
    this.done += n;
    if (this.done > this.maxBytes) throw tooLarge(this.path, this.done, this.maxBytes);
    if (this.done === this.buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.min(this.maxBytes + 1, this.buffer.length * 2));
      this.buffer.copy(bigger);
      this.buffer = bigger;
    }
    return false;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.done);
  }
}

/** The whole of a regular file within the bound (see the module comment). */
export function readRegularFileSync(path: string, options: SafeOpenOptions): Buffer {
  const { fd, stat } = openRegularFileSync(path, options);
  try {
    const read = new BoundedBytes(path, stat.size, options.maxBytes);
    while (!read.took(readSync(fd, ...read.next())));
    return read.bytes();
  } finally {
    closeSync(fd);
  }
}

/** The whole of a regular file within the bound, read without blocking the event loop (see the module comment). */
export async function readRegularFile(path: string, options: SafeOpenOptions): Promise<Buffer> {
  const { handle, stat } = await openRegularFile(path, options);
  try {
    const read = new BoundedBytes(path, stat.size, options.maxBytes);
    while (!read.took((await handle.read(...read.next())).bytesRead));
    return read.bytes();
  } finally {
    await handle.close().catch(() => {});
  }
}
