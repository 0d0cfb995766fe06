/**
 * Downloads one media file: streamed from the socket to `<file>.part` (never held in memory),
 * verified, then renamed to its final name. A failed or interrupted download never leaves a
 * file under the final name. A dropped connection is resumed in the same run from the bytes
 * already on disk, and a leftover `.part` from an earlier run is continued the same way — with
 * `Range` + `If-Range`, only when the server had offered `Accept-Ranges: bytes` and a strong
 * `ETag` (kept in the sidecar `<file>.part.json`); otherwise it starts over.
 *
 * Retries follow the shared policy of src/http/retry-policy.ts. A failure that brought new bytes
 * to disk does not use up one of --retries: a flaky connection that keeps making progress still
 * finishes, within the policy's cap on attempts per file.
 */
import { once } from 'node:events';
import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Readable, type Writable, finished } from 'node:stream';
import {
  AuthError,
  CliError,
  InterruptedError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  UsageError,
} from '../errors.js';
import { type StreamResponse, headerValue } from '../http/transport.js';
import { readCapped } from '../http/read-capped.js';
import { RETRYABLE_STATUSES, decideRetry, isRetryableError, sleep } from '../http/retry-policy.js';
import { errorForStatus } from '../http/status-errors.js';
import type { MediaKind } from '../catalogue/media.js';
import { MAGIC_BYTES, checkContentType, checkLength, checkMagic, readHead } from './verify.js';

/** What the downloader needs from the Transport (src/http/transport.ts). */
export interface MediaTransport {
  stream(url: string | URL, options?: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<StreamResponse>;
  streamError?(err: unknown, url: URL, signal?: AbortSignal): CliError;
  /** Keeps the API key out of server text quoted in errors. */
  redact?(text: string): string;
}

export interface MediaTarget {
  kind: MediaKind;
  url: URL;
  /** How the file is named in messages, e.g. `image "start" of exercise 3_4_Sit-Up`. */
  what: string;
}

export interface DownloadOptions {
  transport: MediaTransport;
  /** Extra attempts after a failure that brought no new bytes. */
  retries: number;
  signal?: AbortSignal;
  /** Called with each chunk's size as it is handed to the disk (or stdout). */
  onBytes?: (bytes: number) => void;
  /** --verbose lines. */
  log?: (line: string) => void;
}

export interface DownloadResult {
  /** Bytes received over the network in this run. */
  received: number;
  /** Size of the complete file. */
  size: number;
  /** Whether bytes from an earlier attempt or run were kept. */
  resumed: boolean;
}

/** The validator kept beside a `.part`, so a rerun may continue it. */
interface Validator {
  etag: string;
  /** Full length of the file, when the server said. */
  total?: number;
}

interface Sidecar extends Validator {
  version: 1;
  url: string;
}

/** Where the bytes go: a `.part` file (then renamed), or a stream such as stdout. */
interface Sink {
  /** Bytes already held that a ranged request may continue from, and their validator. */
  resumeState(url: URL): Promise<{ offset: number; validator?: Validator }>;
  /** Remembers (or forgets) the validator of a fresh 200 answer. */
  remember(url: URL, validator: Validator | undefined): Promise<void>;
  /** A writable positioned at `offset`; it is ended once the body has been copied. */
  open(offset: number): Promise<{ stream: Writable }>;
  /** Bytes really held now (after a failure, the resume point). */
  size(): Promise<number>;
  /** Verifies and publishes the complete bytes. */
  finish(kind: MediaKind, total: number | undefined, what: string): Promise<number>;
  /** Drops bytes that failed verification, so nothing resumes from them. */
  discard(): Promise<void>;
}

function parseLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** `bytes start-end/total` (total may be `*`). */
export function parseContentRange(value: string | undefined): { start: number; end: number; total?: number } | undefined {
  const m = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value ?? '');
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = Number(m[2]);
  const total = m[3] === '*' ? undefined : Number(m[3]);
  if (end < start || (total !== undefined && end >= total)) return undefined;
  return { start, end, total };
}

/** A validator usable with If-Range: byte ranges offered and a strong ETag (RFC 9110 §13.1.5). */
function validatorOf(res: StreamResponse, total: number | undefined): Validator | undefined {
  const ranges = headerValue(res.headers, 'accept-ranges');
  const etag = headerValue(res.headers, 'etag')?.trim();
  if (!ranges || !/\bbytes\b/i.test(ranges) || !etag || etag.startsWith('W/')) return undefined;
  return { etag, ...(total !== undefined ? { total } : {}) };
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves once the file descriptor behind `stream` is closed (its bytes then all on disk). */
async function waitClosed(stream: Writable): Promise<void> {
  if (!stream.closed) await once(stream, 'close').catch(() => {});
}

/**
 * Opening our own files without following a symbolic link planted at their name (the folder
 * is checked by prepareJobDir, not the names inside it). O_NOFOLLOW makes open() fail on a
 * link; where the platform lacks it (Windows), the lstat() checks below still refuse one.
 */
const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND } = fsConstants;
const O_NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;

function linkRefused(path: string): CliError {
  return new UsageError(`Refusing to write through ${path}: it is a symbolic or hard link, which could lead outside the output directory.`, {
    hint: 'Remove it (or choose another --dir) and run the command again.',
    details: { path },
  });
}

/** Throws when `path` is a symbolic link; nothing there is fine. */
async function refuseSymlink(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) throw linkRefused(path);
}

/**
 * The `.part` + sidecar sink that ends in an atomic rename to `path`. A fresh `.part` is a new
 * file (the old name removed, then created exclusively), so a link planted at that name, symbolic
 * or hard, is never written through; a `.part` resumed must be a plain file with one link.
 * The final rename replaces whatever is at `path`, a link included, instead of writing through it.
 */
export function fileSink(path: string): Sink {
  const part = `${path}.part`;
  const sidecar = `${part}.json`;
  let current: Writable | undefined;

  async function writeSidecar(data: Sidecar): Promise<void> {
    const tmp = `${sidecar}.tmp`;
    await rm(tmp, { force: true });
    await writeFile(tmp, JSON.stringify(data), { flag: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW });
    await rename(tmp, sidecar);
  }

  /** The `.part` opened for writing at `offset` (0: a new file), never through a link. */
  async function openPart(offset: number): Promise<Writable> {
    if (offset === 0) await rm(part, { force: true });
    const flags = offset > 0 ? O_WRONLY | O_APPEND | O_NOFOLLOW : O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
    const handle = await open(part, flags).catch((err: unknown) => {
      throw (err as { code?: string }).code === 'ELOOP' ? linkRefused(part) : err;
    });
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.nlink !== 1) throw linkRefused(part);
      if (offset > 0) await handle.truncate(offset); // exactly the bytes the ranged answer continues
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
    return handle.createWriteStream({ highWaterMark: 1024 * 1024 });
  }

  return {
    async resumeState(url) {
      // A planted link is refused before anything else: not resumed from, not renamed into place.
      await refuseSymlink(part);
      const offset = await sizeOf(part);
      if (!offset) return { offset: 0 };
      try {
        const data = JSON.parse(await readFile(sidecar, 'utf8')) as Partial<Sidecar>;
        if (data.version === 1 && data.url === url.href && typeof data.etag === 'string' && data.etag !== '') {
          const total = typeof data.total === 'number' ? data.total : undefined;
          if (total === undefined || offset <= total) return { offset, validator: { etag: data.etag, ...(total !== undefined ? { total } : {}) } };
        }
      } catch {
        // No sidecar or an unreadable one: the bytes cannot be validated, so they are not reused.
      }
      return { offset: 0 };
    },
    async remember(url, validator) {
      await mkdir(dirname(part), { recursive: true });
      if (validator) await writeSidecar({ version: 1, url: url.href, ...validator });
      else await rm(sidecar, { force: true });
    },
    async open(offset) {
      await mkdir(dirname(part), { recursive: true });
      current = await openPart(offset);
      return { stream: current };
    },
    async size() {
      if (current) await waitClosed(current);
      return (await sizeOf(part)) ?? 0;
    },
    async finish(kind, total, what) {
      if (current) await waitClosed(current);
      const size = (await sizeOf(part)) ?? 0;
      try {
        checkLength(total, size, what);
        checkMagic(kind, await readHead(part), what);
      } catch (err) {
        await this.discard();
        throw err;
      }
      await rename(part, path);
      await rm(sidecar, { force: true });
      return size;
    },
    async discard() {
      if (current) await waitClosed(current);
      await rm(part, { force: true });
      await rm(sidecar, { force: true });
    },
  };
}

/**
 * A sink over an open stream (stdout for `-o -`). Bytes once written cannot be taken back, so
 * it can continue only from exactly what it has written, and never start over once it began.
 */
export function streamSink(out: Writable): Sink {
  let written = 0;
  let validator: Validator | undefined;
  return {
    async resumeState() {
      return { offset: written, ...(validator ? { validator } : {}) };
    },
    async remember(_url, v) {
      validator = v;
    },
    async open(offset) {
      if (offset !== written) {
        throw new NetworkError('The download was interrupted after part of it had been written to stdout, and the server cannot continue it.', {
          hint: 'Run it again, or save to a file with -o <file>, which can be resumed.',
        });
      }
      const { Writable } = await import('node:stream');
      // Counts what reaches `out`, without ever ending it.
      const counter = new Writable({
        highWaterMark: 1024 * 1024,
        write(chunk: Buffer, _enc, cb) {
          written += chunk.length;
          if (out.write(chunk)) cb();
          else out.once('drain', () => cb());
        },
      });
      return { stream: counter };
    },
    async size() {
      return written;
    },
    async finish(_kind, total, what) {
      checkLength(total, written, what);
      return written;
    },
    async discard() {
      // Already written bytes cannot be withdrawn; the exit status says the output is bad.
    },
  };
}

/** A failure of the local disk (full, read-only, not a directory): not the network's fault, never retried. */
export function localWriteError(err: unknown, target?: MediaTarget): CliError {
  const reason = err instanceof Error ? err.message : String(err);
  return new UsageError(`Cannot write ${target ? `the ${target.what}` : 'the file'}: ${reason}.`, {
    hint: 'Check that --dir (or -o) names a writable directory with enough free space.',
    cause: err,
  });
}

/** The error for a non-2xx media status. */
function statusError(status: number, target: MediaTarget, body: string | undefined): CliError {
  if (status === 403) {
    return new AuthError(`The service refused the ${target.what} (403): premium images and videos need a premium plan, and this API key's plan does not include them.`, {
      forbidden: true,
      hint: 'Use a key of a premium plan (`exercises auth login`), or try the media commands with --sandbox.',
      details: { status, url: target.url.href },
    });
  }
  if (status === 404) {
    return new NotFoundError(`The service has no ${target.what} (404).`, {
      hint: '`exercises show <id>` lists the premiumImages and premiumVideos of an exercise.',
      details: { status, url: target.url.href },
    });
  }
  return errorForStatus(status, `the ${target.what}`, body);
}

/** Lets go of a body not wanted (destroying a response may emit an error: silence it). */
function discardBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Reads at most 64 KiB of an error body (to quote the server's message), then lets go of it. */
async function readSmall(body: Readable): Promise<string | undefined> {
  try {
    return (await readCapped(body, 64 * 1024)).bytes.toString('utf8');
  } catch {
    return undefined;
  } finally {
    discardBody(body);
  }
}

interface CopyOptions {
  /** Each chunk's size, as it is handed to `dest`. */
  onChunk(bytes: number): void;
  /** Judges the first MAGIC_BYTES (or the whole body, if shorter) before any byte is written; throws to refuse. */
  checkHead?(first: Buffer): void;
}

/**
 * Copies `source` into `dest`, then ends `dest` and waits for it to finish. One plain callback
 * per chunk and the writable's own buffering (no promise or async iteration per chunk: at
 * 64 KiB a chunk, that per-chunk work was a large part of the CPU a bulk download spends).
 *
 * A failure of the source (dropped connection, timeout, Ctrl-C) is not thrown: `dest` is still
 * ended normally, so every byte that arrived reaches the disk and becomes the resume point,
 * and the source's error is returned. A failure of `dest`, or `checkHead` refusing the first
 * bytes, rejects (and destroys both streams).
 */
function copyBody(source: Readable, dest: Writable, options: CopyOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let checking = options.checkHead !== undefined;
    let pending: Buffer[] = [];
    let pendingLength = 0;
    let ending = false;
    let settled = false;
    let sourceError: unknown;

    let stopWatching = (): void => {};
    const detachSource = (): void => {
      source.off('data', onData);
      stopWatching();
      dest.off('drain', onDrain);
    };
    const settle = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      detachSource();
      dest.off('finish', onFinish);
      dest.off('close', onFinish);
      dest.off('error', onDestError);
      if (err !== undefined) reject(err);
      else resolve(sourceError);
    };
    const fail = (err: unknown): void => {
      discardBody(source);
      dest.destroy();
      settle(err);
    };
    const write = (chunk: Buffer): void => {
      if (!dest.write(chunk)) source.pause();
    };
    /** Judges and writes the held first bytes; false when they were refused. */
    const releaseHead = (): boolean => {
      const first = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      pending = [];
      checking = false;
      try {
        options.checkHead!(first);
      } catch (err) {
        fail(err);
        return false;
      }
      write(first);
      return true;
    };
    function onData(chunk: Buffer): void {
      options.onChunk(chunk.length);
      if (!checking) return write(chunk);
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength >= MAGIC_BYTES) releaseHead();
    }
    function endDest(): void {
      if (ending) return;
      ending = true;
      detachSource();
      dest.end();
    }
    /** The body is complete. */
    function onEnd(): void {
      if (ending || settled) return;
      if (checking && pendingLength > 0 && !releaseHead()) return;
      endDest();
    }
    function onSourceError(err: unknown): void {
      // First bytes still held when the source failed were never judged: they are not kept.
      sourceError = err;
      endDest();
    }
    function onDrain(): void {
      source.resume();
    }
    function onFinish(): void {
      settle();
    }
    function onDestError(err: unknown): void {
      discardBody(source);
      settle(err);
    }

    source.on('data', onData);
    // finished() also reports a source that failed or ended before it got here (the body may
    // have failed while the `.part` was being opened), and a close without an end.
    stopWatching = finished(source, { writable: false }, (err) => (err ? onSourceError(err) : onEnd()));
    dest.on('drain', onDrain);
    dest.once('finish', onFinish);
    dest.once('close', onFinish);
    dest.once('error', onDestError);
  });
}

/**
 * Streams `target` into `sink`, resuming and retrying as described at the top of this file.
 * Throws the project's errors: AuthError (401/403), NotFoundError (404), RateLimitError,
 * NetworkError (after retries), MalformedResponseError (verification), InterruptedError.
 */
export async function fetchToSink(target: MediaTarget, sink: Sink, options: DownloadOptions): Promise<DownloadResult> {
  const { transport, signal, log } = options;
  const initial = await sink.resumeState(target.url);
  let offset = initial.offset;
  let validator = initial.validator;
  let resumed = false;
  let received = 0;
  /** Failures since the last new byte reached the disk. */
  let failures = 0;
  /** Attempts that failed, in all. */
  let attempts = 0;
  /** Furthest point ever held; only getting past it counts as progress. */
  let furthest = offset;

  const interrupted = (): boolean => signal?.aborted === true;

  /** Counts a failure; throws `err` once the attempts are spent, else waits the backoff. */
  const failed = async (err: CliError, retryAfter?: string): Promise<void> => {
    const held = await sink.size();
    if (held > furthest) {
      furthest = held;
      failures = 0;
    }
    failures += 1;
    attempts += 1;
    const decision = decideRetry({ attempts, fruitless: failures }, options.retries, err, retryAfter);
    if (!decision.retry) throw decision.error;
    log?.(`${target.what}: ${err.message} — retrying in ${decision.delayMs} ms`);
    await sleep(decision.delayMs, signal);
  };

  // A complete `.part` left just before its rename needs no request at all.
  if (validator?.total !== undefined && offset === validator.total && offset > 0) {
    const size = await sink.finish(target.kind, validator.total, target.what);
    return { received: 0, size, resumed: true };
  }

  for (;;) {
    if (interrupted()) throw new InterruptedError();
    const ranged = offset > 0 && validator !== undefined;
    if (!ranged) offset = 0;
    const headers: Record<string, string> = ranged ? { range: `bytes=${offset}-`, 'if-range': validator!.etag } : {};

    let res: StreamResponse;
    try {
      res = await transport.stream(target.url, { headers, ...(signal ? { signal } : {}) });
    } catch (err) {
      if (interrupted()) throw new InterruptedError();
      if (!isRetryableError(err)) throw err;
      await failed(err as CliError);
      continue;
    }

    // Errors of the body are seen by copyBody(); a late duplicate must not crash the process.
    res.body.on('error', () => {});
    const status = res.status;
    if (status !== 200 && status !== 206) {
      const body = await readSmall(res.body).then((text) => (text && transport.redact ? transport.redact(text) : text));
      if (status === 416) {
        // The bytes held do not fit the file any more: start over.
        log?.(`${target.what}: range not satisfiable, starting over`);
        validator = undefined;
        offset = 0;
        await failed(new MalformedResponseError(`The server refused to continue the ${target.what} (416).`));
        continue;
      }
      const error = statusError(status, target, body);
      if (!RETRYABLE_STATUSES.has(status)) throw error;
      await failed(error, headerValue(res.headers, 'retry-after'));
      continue;
    }

    let start = 0;
    let total: number | undefined;
    if (status === 206) {
      const range = parseContentRange(headerValue(res.headers, 'content-range'));
      const fits =
        ranged &&
        range !== undefined &&
        range.start === offset &&
        (range.total === undefined || range.end === range.total - 1) &&
        (validator!.total === undefined || range.total === undefined || range.total === validator!.total);
      if (!fits) {
        discardBody(res.body);
        log?.(`${target.what}: the partial answer does not match what was asked, starting over`);
        validator = undefined;
        offset = 0;
        await failed(new MalformedResponseError(`The server answered a range request for the ${target.what} with a mismatched Content-Range.`));
        continue;
      }
      start = offset;
      total = range.total ?? validator!.total;
      resumed = true;
    } else {
      // A 200 to a ranged request means the validator no longer matches: the file changed.
      if (ranged) log?.(`${target.what}: the file changed on the server, starting over`);
      total = parseLength(headerValue(res.headers, 'content-length'));
      validator = validatorOf(res, total);
      offset = 0;
    }

    try {
      checkContentType(target.kind, res.headers['content-type'], `the ${target.what}`);
    } catch (err) {
      discardBody(res.body);
      await sink.discard();
      throw err;
    }
    let opened: { stream: Writable };
    try {
      if (status === 200) await sink.remember(target.url, validator);
      opened = await sink.open(start);
    } catch (err) {
      discardBody(res.body);
      throw err instanceof CliError ? err : localWriteError(err, target);
    }
    const { stream } = opened;
    const what = `the ${target.what}`;
    const kind = target.kind;
    const onBytes = options.onBytes;
    /** A failure of the socket while reading: the bytes that arrived are still flushed to disk. */
    let sourceError: unknown;
    try {
      sourceError = await copyBody(res.body, stream, {
        onChunk(bytes) {
          received += bytes;
          onBytes?.(bytes);
        },
        // From offset 0, the first bytes are held until the magic can be judged: an HTML page
        // is refused before any of it is written or the rest is downloaded.
        ...(start === 0 ? { checkHead: (first: Buffer) => checkMagic(kind, first, what) } : {}),
      });
    } catch (err) {
      if (err instanceof MalformedResponseError) {
        await sink.discard();
        throw err;
      }
      if (interrupted()) throw new InterruptedError();
      throw err instanceof CliError ? err : localWriteError(err, target);
    }
    if (interrupted()) {
      await sink.size(); // the `.part` is closed and whole for the rerun
      throw new InterruptedError();
    }
    if (sourceError !== undefined) {
      const mapped = transport.streamError?.(sourceError, target.url, signal) ?? (sourceError as CliError);
      if (!isRetryableError(mapped) && !isRetryableError(sourceError)) throw mapped;
      offset = await sink.size();
      await failed(mapped instanceof NetworkError ? mapped : new NetworkError(`The connection dropped while fetching the ${target.what}.`, { cause: sourceError }));
      continue;
    }

    const held = await sink.size();
    if (total !== undefined && held < total) {
      // The body ended early without an error: a truncated answer, continued like a dropped one.
      offset = held;
      await failed(new NetworkError(`The server sent ${held} of ${total} bytes of the ${target.what} and stopped.`));
      continue;
    }
    const size = await sink.finish(target.kind, total, what);
    return { received, size, resumed };
  }
}

/** Downloads `target` to `path` through `<path>.part`, atomically. */
export function downloadFile(target: MediaTarget, path: string, options: DownloadOptions): Promise<DownloadResult> {
  return fetchToSink(target, fileSink(path), options);
}

/** Streams `target` to `out` (stdout for `-o -`), verifying on the fly. */
export function downloadToStream(target: MediaTarget, out: Writable, options: DownloadOptions): Promise<DownloadResult> {
  return fetchToSink(target, streamSink(out), options);
}
