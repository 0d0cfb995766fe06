/**
 * The file sink: bytes go to `<file>.part` under the file's lock, and are renamed to `<file>` once
 * verified, checked through our own descriptor: the very file at `<file>.part`, one link, exactly the
 * bytes we wrote. A fresh `.part` is created exclusively (a planted link, symbolic or hard, is never
 * written through); the rename replaces whatever is at `<file>` rather than writing through it.
 */
import { type FileHandle, mkdir, open, rename } from 'node:fs/promises';
import { writev } from 'node:fs';
import { dirname } from 'node:path';
import { MEDIA_LOCK_STALE_MS } from '../../defaults.js';
import { UsageError } from '../../errors.js';
import { writeFailed } from '../../util/write-all.js';
import { lstatOrUndefined } from '../../util/real-dir.js';
import { MAGIC_BYTES, checkLength, checkMagic, looksComplete } from '../verify.js';
import { type HeldLock, LockWaitError, lockFile, lockPathOf } from '../../util/file-lock.js';
import { CREATE_NEW_FLAGS, REOPEN_FLAGS, assertSingleLink, linkRefused } from './link-safety.js';
import { type Validator, readSidecar, removeIfAny, sidecarPath, writeSidecar } from './range-resume.js';
import type { Sink, SinkWriter } from './types.js';

/**
 * A `.part` past this size gets its sidecar while it downloads, so even a killed process leaves it
 * resumable; a smaller one only when its download ends unfinished (most images never write one).
 */
const SIDECAR_AFTER_BYTES = 256 * 1024;

/** The file changed under this download although it held the lock: something else is writing it. */
function changedUnderUs(part: string): UsageError {
  return new UsageError(`${part} changed while this download was writing it: another program is writing the same file.`, {
    hint: 'Let the other program finish (or stop it), then run the command again.',
    details: { path: part },
  });
}

/** Identity of the plain file at `path` now, to see whether another process put a new file there. */
function identity(path: string): string | undefined {
  const info = lstatOrUndefined(path);
  return info?.isFile() ? `${info.dev}:${info.ino}:${info.mtimeMs}` : undefined;
}

function withoutFirst(chunks: readonly Buffer[], bytes: number): Buffer[] {
  const left: Buffer[] = [];
  let skip = bytes;
  for (const chunk of chunks) {
    if (skip >= chunk.length) skip -= chunk.length;
    else {
      left.push(skip > 0 ? chunk.subarray(skip) : chunk);
      skip = 0;
    }
  }
  return left;
}

/** The `.part` of `path` (kept after a failure, for the rerun). */
export function partPath(path: string): string {
  return `${path}.part`;
}

/** The bytes kept in the `.part` of `path`; undefined when none, empty or not a plain file. */
export function partBytes(path: string): number | undefined {
  const info = lstatOrUndefined(partPath(path));
  return info?.isFile() && info.size > 0 ? info.size : undefined;
}

/** The `.part` + sidecar sink ending in an atomic rename; the sidecar only ever describes the bytes in the `.part`. */
export function fileSink(path: string): Sink {
  const part = partPath(path);
  let lock: HeldLock | undefined;
  let handle: FileHandle | undefined;
  /** The offset the `.part` was opened at, and the bytes written after it through `fd`. */
  let base = 0;
  let written = 0;
  let unsaved: { url: URL; validator: Validator } | undefined;
  let saving: Promise<void> | undefined;

  function saveValidator(): Promise<void> {
    if (unsaved !== undefined) {
      const { url, validator } = unsaved;
      unsaved = undefined;
      // Best effort: without it the next run starts the `.part` over.
      saving = writeSidecar(part, url, validator).catch(() => {});
    }
    return saving ?? Promise.resolve();
  }

  async function closeOwn(): Promise<void> {
    const own = handle;
    handle = undefined;
    await own?.close().catch(() => {});
  }

  async function discard(): Promise<void> {
    unsaved = undefined;
    await closeOwn();
    await saving;
    await Promise.all([removeIfAny(part), removeIfAny(sidecarPath(part))]);
  }

  const writer: SinkWriter = {
    write(chunks, done) {
      const fd = handle?.fd;
      if (fd === undefined) {
        process.nextTick(done, new Error(`${part} is not open`));
        return;
      }
      // All of `chunks` in one call, over short writes; a failed write names the file (exit 6).
      const writeAll = (rest: readonly Buffer[]): void =>
        writev(fd, rest, base + written, (err, bytes) => {
          if (err) return done(writeFailed(part, err));
          written += bytes;
          if (bytes === 0) return done(writeFailed(part, new Error('the file system accepted no bytes')));
          const left = withoutFirst(rest, bytes);
          if (left.length > 0) return writeAll(left);
          if (unsaved !== undefined && base + written > SIDECAR_AFTER_BYTES) void saveValidator();
          done(null);
        });
      writeAll(chunks);
    },
  };

  return {
    async claim(kind, options) {
      // What is at the final name now: a file another process renames into place while this one
      // waits for the lock (or before it asks) differs from it.
      const before = identity(path);
      const seconds = Math.round(options.waitMs / 1000);
      const take = (): ReturnType<typeof lockFile> =>
        lockFile(path, {
          waitMs: options.waitMs,
          staleMs: MEDIA_LOCK_STALE_MS,
          ...(options.signal ? { signal: options.signal } : {}),
          onWait: () => {
            options.onWait?.(`Another process is writing the ${options.what} (${lockPathOf(path)}); waiting up to ${seconds} s for it.`);
          },
        });
      // The folder is made only when missing (a bulk run has made it already).
      const { lock: held } = await take()
        .catch(async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
          await mkdir(dirname(path), { recursive: true });
          return take();
        })
        .catch((err: unknown) => {
          if (!(err instanceof LockWaitError)) throw err;
          throw new UsageError(`Another process is writing the ${options.what} into the same file (${lockPathOf(path)} is held); gave up after ${seconds} s.`, {
            hint: 'Let the other download finish, then run the command again: complete files are skipped.',
            details: { lock: lockPathOf(path) },
          });
        });
      lock = held;
      // Another process may have put the complete file in place: nothing to do.
      const after = identity(path);
      const replaced = after !== undefined && (after !== before || options.skipComplete === true);
      if (replaced && (await looksComplete(kind, path))) return { completedMeanwhile: true, size: lstatOrUndefined(path)?.size };
      return { completedMeanwhile: false };
    },

    async release() {
      await closeOwn();
      // The `.part` outlives this download: keep what lets the next run resume it.
      if (base + written > 0) await saveValidator();
      await saving;
      const held = lock;
      lock = undefined;
      await held?.release();
    },

    async resumeState(url) {
      // A planted link is refused: not resumed from, not renamed into place.
      const info = lstatOrUndefined(part);
      if (info?.isSymbolicLink()) throw linkRefused(part);
      const offset = info?.isFile() ? info.size : 0;
      if (offset === 0) return { offset: 0 };
      const validator = await readSidecar(part, url, offset);
      return validator ? { offset, validator } : { offset: 0 };
    },

    async remember(url, validator) {
      unsaved = validator ? { url, validator } : undefined;
    },

    async open(offset) {
      await closeOwn();
      if (offset === 0) {
        // A fresh file: the old `.part` and its sidecar go; a failure from here saves no validator for bytes it does not describe.
        base = 0;
        written = 0;
        await saving;
        await Promise.all([removeIfAny(part), removeIfAny(sidecarPath(part))]);
      }
      const opened = await open(part, offset > 0 ? REOPEN_FLAGS : CREATE_NEW_FLAGS, 0o666).catch((err: unknown) => {
        throw (err as NodeJS.ErrnoException).code === 'ELOOP' ? linkRefused(part) : err;
      });
      handle = opened;
      // A file just made with O_EXCL is new: only a reopened one is checked.
      if (offset > 0) {
        const info = await opened.stat();
        assertSingleLink(info, part);
        if (info.size < offset) throw changedUnderUs(part);
        await opened.truncate(offset); // exactly the bytes the ranged answer continues
      }
      base = offset;
      written = 0;
      return writer;
    },

    size() {
      return base + written;
    },

    async finish(kind, total, what) {
      if (handle === undefined) throw new Error(`${part} is not open`);
      const own = handle;
      // Whole now: renamed into place or refused, never resumed from.
      unsaved = undefined;
      const held = base + written;
      // A refusal leaves the file to release(); only bytes failing verification are removed.
      const lost = lock?.lost();
      if (lost) {
        throw new UsageError(`Lost the lock of ${path} while writing it (${lost.message}); another download may have taken it over.`, {
          hint: 'Run the command again once no other download of it is running.',
        });
      }
      const info = await own.stat();
      const named = lstatOrUndefined(part);
      // Our file lost its name, or holds bytes we did not write: someone else is at it.
      if (info.nlink === 0 || info.size !== held || named?.ino !== info.ino || named.dev !== info.dev) throw changedUnderUs(part);
      assertSingleLink(info, part);
      try {
        checkLength(total, held, what);
        const head = Buffer.alloc(MAGIC_BYTES);
        const { bytesRead } = await own.read(head, 0, MAGIC_BYTES, 0);
        checkMagic(kind, head.subarray(0, bytesRead), what);
      } catch (err) {
        await discard();
        throw err;
      }
      await rename(part, path);
      await closeOwn();
      await saving;
      await removeIfAny(sidecarPath(part));
      return held;
    },

    discard,
  };
}
