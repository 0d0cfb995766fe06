/**
 * The file sink: bytes go to `<file>.part` through this process's own file descriptor, and are
 * renamed to `<file>` once verified. Everything happens under the file's lock (util/file-lock.ts), so
 * no other download touches the `.part` meanwhile; and what is renamed is checked through the
 * descriptor we wrote with, not by name: it must be the very file at `<file>.part` (same device
 * and inode), a plain file with one link, holding exactly the bytes we wrote and, when the server
 * said, the announced length. A failed or interrupted download never leaves a file under the
 * final name.
 *
 * A fresh `.part` is a new file (the old name removed, then created exclusively), so a link
 * planted at that name, symbolic or hard, is never written through; a `.part` resumed must be a
 * plain file with one link. The final rename replaces whatever is at `<file>`, a link included,
 * instead of writing through it.
 */
import { type FileHandle, mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MEDIA_LOCK_STALE_MS } from '../../defaults.js';
import { UsageError } from '../../errors.js';
import { fsCalls, writeFailed } from '../../util/write-all.js';
import { lstatOrUndefined } from '../../util/real-dir.js';
import { MAGIC_BYTES, checkLength, checkMagic, looksComplete } from '../verify.js';
import { type HeldLock, LockWaitError, lockFile, lockPathOf } from '../../util/file-lock.js';
import { CREATE_NEW_FLAGS, REOPEN_FLAGS, assertSingleLink, linkRefused } from './link-safety.js';
import { type Validator, readSidecar, removeIfAny, sidecarPath, writeSidecar } from './range-resume.js';
import type { Sink, SinkWriter } from './types.js';

/**
 * A `.part` holding more than this is given its sidecar while it downloads, so even a process
 * killed outright (no chance to write it at the end) leaves a big file resumable. A smaller
 * file gets one only when its download ends without it whole (a failure, Ctrl-C): the files
 * that arrive in one piece, most images, never write and remove one.
 */
const SIDECAR_AFTER_BYTES = 256 * 1024;

/** The file changed under this download although it held the file's lock: something else is writing it. */
function changedUnderUs(part: string): UsageError {
  return new UsageError(`${part} changed while this download was writing it: another program is writing the same file.`, {
    hint: 'Let the other program finish (or stop it), then run the command again.',
    details: { path: part },
  });
}

/** Identity of the plain file at `path` now (following nothing), to see whether another process put a new file there. */
function identity(path: string): string | undefined {
  const info = lstatOrUndefined(path);
  return info?.isFile() ? `${info.dev}:${info.ino}:${info.mtimeMs}` : undefined;
}

/** What is left of `chunks` once their first `bytes` are written. */
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

/** The `.part` a download to `path` writes through until it is whole (kept after a failure, for the rerun). */
export function partPath(path: string): string {
  return `${path}.part`;
}

/** The bytes kept in the `.part` of `path`: undefined when there is none, or it is empty or not a plain file (never resumed from). */
export function partBytes(path: string): number | undefined {
  const info = lstatOrUndefined(partPath(path));
  return info?.isFile() && info.size > 0 ? info.size : undefined;
}

/**
 * The `.part` + sidecar sink that ends in an atomic rename to `path`. The sidecar on disk only
 * ever describes the bytes in the `.part`: a fresh `.part` removes any sidecar first, and the
 * validator of its answer is written beside it once it may be needed (SIDECAR_AFTER_BYTES).
 */
export function fileSink(path: string): Sink {
  const part = partPath(path);
  let lock: HeldLock | undefined;
  let handle: FileHandle | undefined;
  /** The offset the `.part` was opened at, and the bytes written after it through `fd`. */
  let base = 0;
  let written = 0;
  /** The validator of the `.part`'s bytes while it is not in the sidecar yet. */
  let unsaved: { url: URL; validator: Validator } | undefined;
  let saving: Promise<void> | undefined;

  /** Writes the unsaved validator beside the `.part`, once. */
  function saveValidator(): Promise<void> {
    if (unsaved !== undefined) {
      const { url, validator } = unsaved;
      unsaved = undefined;
      // Best effort: without it the `.part` is only started over by the next run, never misused.
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
      // All of `chunks` after the bytes held, in one call, continuing after short writes (through fsCalls, so a test can
      // make the disk fail here). A failed write (a full disk) names the file and its reason: exit 6, the final name untouched.
      const writeAll = (rest: readonly Buffer[]): void =>
        fsCalls.writev(fd, rest, base + written, (err, bytes) => {
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
      /** What was at the final name when the wait began (taken only when there is a wait). */
      let before: string | undefined;
      const seconds = Math.round(options.waitMs / 1000);
      const take = (): ReturnType<typeof lockFile> =>
        lockFile(path, {
          waitMs: options.waitMs,
          staleMs: MEDIA_LOCK_STALE_MS,
          ...(options.signal ? { signal: options.signal } : {}),
          onWait: () => {
            before = identity(path);
            options.onWait?.(`Another process is writing the ${options.what} (${lockPathOf(path)}); waiting up to ${seconds} s for it.`);
          },
        });
      // The folder is made only when the lock finds it missing (a bulk run has made it already).
      const { lock: held, waited } = await take()
        .catch(async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
          await mkdir(dirname(path), { recursive: true });
          return take();
        })
        .catch((err: unknown) => {
          if (!(err instanceof LockWaitError)) throw err;
          // The file's lock stayed held by another download past the wait.
          throw new UsageError(`Another process is writing the ${options.what} into the same file (${lockPathOf(path)} is held); gave up after ${seconds} s.`, {
            hint: 'Let the other download finish, then run the command again: complete files are skipped.',
            details: { lock: lockPathOf(path) },
          });
        });
      lock = held;
      if (waited) {
        // The other process may have just put the complete file in place: then there is nothing to do.
        const after = identity(path);
        if (after !== undefined && after !== before && (await looksComplete(kind, path)))
          return { completedMeanwhile: true, size: lstatOrUndefined(path)?.size };
      }
      return { completedMeanwhile: false };
    },

    async release() {
      await closeOwn();
      // The `.part` outlives this download (a failure, Ctrl-C): keep what lets the next run resume it.
      if (base + written > 0) await saveValidator();
      await saving;
      const held = lock;
      lock = undefined;
      await held?.release();
    },

    async resumeState(url) {
      // A planted link is refused before anything else: not resumed from, not renamed into place.
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
        // A fresh file: an old `.part` goes, and any sidecar with it (it described other bytes). Its bytes are no longer
        // this download's, so a failure from here on saves no validator (release) beside bytes it does not describe.
        base = 0;
        written = 0;
        await saving;
        await Promise.all([removeIfAny(part), removeIfAny(sidecarPath(part))]);
      }
      const opened = await open(part, offset > 0 ? REOPEN_FLAGS : CREATE_NEW_FLAGS, 0o666).catch((err: unknown) => {
        // ELOOP: a symbolic link under O_NOFOLLOW.
        throw (err as NodeJS.ErrnoException).code === 'ELOOP' ? linkRefused(part) : err;
      });
      handle = opened;
      // A file just made with O_EXCL is new, with one link and no bytes: only a reopened one is checked
      // (a refusal leaves the file to release(), which the downloader always calls).
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
      // Whole now: renamed into place or refused, never resumed from (nor, if it is another's now, described).
      unsaved = undefined;
      const held = base + written;
      // A refusal here leaves the file to release(), which the downloader always calls; only bytes that fail verification are removed.
      const lost = lock?.lost();
      if (lost) {
        throw new UsageError(`Lost the lock of ${path} while writing it (${lost.message}); another download may have taken it over.`, {
          hint: 'Run the command again once no other download of it is running.',
        });
      }
      const info = await own.stat();
      const named = lstatOrUndefined(part);
      // Our file lost its name (replaced), or holds bytes we did not write: someone else is at it.
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
