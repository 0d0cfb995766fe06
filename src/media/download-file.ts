/**
 * Downloads one media file: streamed from the socket to `<file>.part` (never held in memory),
 * verified, then renamed to its final name. A failed or interrupted download never leaves a
 * file under the final name. A dropped connection is resumed in the same run from the bytes
 * already on disk, and a leftover `.part` from an earlier run is continued the same way — with
 * `Range` + `If-Range`, only when the server had offered `Accept-Ranges: bytes` and a strong
 * `ETag` (kept in the sidecar `<file>.part.json`); otherwise it starts over.
 *
 * This module is the orchestration; each job is a module of its own under ./download/: the
 * sinks (file-sink.ts, stream-sink.ts), link safety, the per-file lock, the body pump and
 * range/resume.
 *
 * Rules that hold for every file:
 * - One writer per file: the file's lock (`<file>.lock`) is held from before its `.part` is
 *   looked at until after the rename. A download that finds it held waits (MEDIA_LOCK_WAIT_MS),
 *   then gives up on that file; if the other process completed the file meanwhile, it is done.
 * - Completeness must be shown, never assumed: by Content-Length (or the Content-Range total),
 *   or, for a body of unknown length, by its chunked framing ending cleanly. A body delimited
 *   only by the connection closing is refused: a drop and an end look the same.
 * - A size cap per kind (MEDIA_SIZE_CAP_BYTES, or DownloadOptions.maxBytes): an announced length
 *   above it is refused before anything is written; a body that grows past it is cut off and
 *   its `.part` removed.
 *
 * Retries follow the shared policy of src/http/retry-policy.ts, within its cap on attempts per
 * file. A failure that brought new bytes to
 * disk does not use up an attempt: a flaky connection that keeps making progress still finishes.
 */
import type { Writable } from 'node:stream';
import { AuthError, CliError, InterruptedError, MalformedResponseError, NetworkError, NotFoundError, WriteFailedError } from '../errors.js';
import { reasonOf } from '../util/write-all.js';
import { type DispatchResponse, headerValue } from '../http/transport.js';
import { RETRYABLE_STATUSES, decideRetry, isRetryableError, sleep } from '../http/retry-policy.js';
import { errorForStatus } from '../http/status-errors.js';
import type { MediaKind } from '../catalogue/media.js';
import { MEDIA_LOCK_WAIT_MS } from '../defaults.js';
import { checkContentType, checkMagic, mediaSizeCap, tooLargeError } from './verify.js';
import { type BodySource, pumpBody, readSmall } from './download/body-pump.js';
import { fileSink } from './download/file-sink.js';
import { streamSink } from './download/stream-sink.js';
import { parseContentRange, parseLength, selfDelimited, validatorOf } from './download/range-resume.js';
import type { Sink, SinkWriter } from './download/sink.js';

export { fileSink, streamSink, parseContentRange };
export type { Sink };

/** What the downloader needs from the Transport (src/http/transport.ts). */
export interface MediaTransport {
  /** One GET attempt whose body is handed over chunk by chunk (undici's dispatch, no Readable). */
  dispatchStream(url: string | URL, options?: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<DispatchResponse>;
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
  /** Called with each chunk's size as it arrives. */
  onBytes?: (bytes: number) => void;
  /** Called when a response's headers arrive: the file's full size when known, and the byte it resumes from. */
  onStart?: (expectedBytes: number | undefined, fromByte: number) => void;
  /** --verbose lines. */
  log?: (line: string) => void;
  /** Lines worth showing without --verbose (a file another process is writing); `log` when absent. */
  notice?: (line: string) => void;
  /** Largest file accepted, in bytes; MEDIA_SIZE_CAP_BYTES of the kind when absent. */
  maxBytes?: number;
  /** Longest wait for another process writing the same file; MEDIA_LOCK_WAIT_MS when absent. */
  lockWaitMs?: number;
  /** What answers, for a 404's message: `the catalogue at <dir>` under --catalogue; "the service" when absent. */
  source?: string;
}

export interface DownloadResult {
  /** Bytes received over the network in this run. */
  received: number;
  /** Size of the complete file. */
  size: number;
  /** Whether bytes from an earlier attempt or run were kept. */
  resumed: boolean;
  /** True when another process completed the file while this one waited for it (nothing fetched). */
  completedElsewhere?: boolean;
}

/**
 * A failure of the local disk (full, read-only, not a directory): not the network's fault, never
 * retried; exit 6 with the file (when the error names it) and the reason.
 */
export function localWriteError(err: unknown, target?: MediaTarget): CliError {
  if (err instanceof CliError) return err;
  const path = (err as { path?: unknown }).path;
  return new WriteFailedError(typeof path === 'string' ? path : target ? `the ${target.what}` : 'the file', reasonOf(err), {
    hint: 'Check that --dir (or -o) names a writable directory with enough free space.',
    cause: err,
  });
}

/** Our own errors as they are; anything else the disk threw, as a local write error. */
function asLocal(target: MediaTarget): (err: unknown) => never {
  return (err) => {
    throw err instanceof CliError ? err : localWriteError(err, target);
  };
}

/** The error for a non-2xx media status. */
function statusError(status: number, target: MediaTarget, body: string | undefined, redact?: (text: string) => string, source = 'the service'): CliError {
  if (status === 403) {
    return new AuthError(
      `The service refused the ${target.what} (403): premium images and videos need a premium plan, and this API key's plan does not include them.`,
      {
        forbidden: true,
        hint: 'Use a key of a premium plan (`exercises auth login`), or try the media commands with --sandbox.',
        details: { status, url: target.url.href },
      },
    );
  }
  if (status === 404) {
    return new NotFoundError(`${source.charAt(0).toUpperCase()}${source.slice(1)} has no ${target.what} (404).`, {
      hint: '`exercises show <id>` lists the premiumImages and premiumVideos of an exercise.',
      details: { status, url: target.url.href },
    });
  }
  // The redactor again on the decoded message: a key spelled with JSON escapes is whole only once decoded.
  return errorForStatus(status, `the ${target.what}`, body, redact);
}

/** Reads at most 64 KiB of an error body (to quote the server's message), then lets go of it. */
async function readErrorBody(body: BodySource): Promise<string | undefined> {
  const bytes = await readSmall(body, 64 * 1024);
  return bytes.length > 0 ? bytes.toString('utf8') : undefined;
}

/**
 * Streams `target` into `sink`, resuming and retrying as described at the top of this file.
 * Throws the project's errors: AuthError (401/403), NotFoundError (404), RateLimitError,
 * NetworkError (after retries), MalformedResponseError (verification, size cap), WriteFailedError or UsageError
 * (local disk, links, a file another process keeps writing), InterruptedError.
 */
export async function fetchToSink(target: MediaTarget, sink: Sink, options: DownloadOptions): Promise<DownloadResult> {
  const notice = options.notice ?? options.log;
  try {
    const claimed = await sink
      .claim(target.kind, {
        waitMs: options.lockWaitMs ?? MEDIA_LOCK_WAIT_MS,
        what: target.what,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(notice ? { onWait: notice } : {}),
      })
      .catch(asLocal(target));
    if (claimed.completedMeanwhile) {
      options.log?.(`${target.what}: completed by another process meanwhile`);
      return { received: 0, size: claimed.size ?? 0, resumed: false, completedElsewhere: true };
    }
    return await transfer(target, sink, options);
  } finally {
    await sink.release();
  }
}

/** The request / verify / resume loop, with the file claimed. */
async function transfer(target: MediaTarget, sink: Sink, options: DownloadOptions): Promise<DownloadResult> {
  const { transport, signal, log } = options;
  const { kind } = target;
  const what = `the ${target.what}`;
  const cap = mediaSizeCap(kind, options.maxBytes);
  const initial = await sink.resumeState(target.url).catch(asLocal(target));
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
    const held = sink.size();
    if (held > furthest) {
      furthest = held;
      failures = 0;
    }
    failures += 1;
    attempts += 1;
    const decision = decideRetry({ attempts, fruitless: failures }, options.retries, err, retryAfter);
    if (!decision.retry) throw decision.error;
    const delay = decision.delayMs;
    log?.(`${target.what}: ${err.message} — retrying in ${delay} ms`);
    await sleep(delay, signal);
  };

  // A complete `.part` left just before its rename needs no request at all.
  if (validator?.total !== undefined && offset === validator.total && offset > 0 && offset <= cap) {
    await sink.open(offset).catch(asLocal(target));
    const size = await sink.finish(kind, validator.total, what);
    return { received: 0, size, resumed: true };
  }

  for (;;) {
    if (interrupted()) throw new InterruptedError();
    const ranged = offset > 0 && validator !== undefined;
    if (!ranged) offset = 0;
    const headers: Record<string, string> = ranged ? { range: `bytes=${offset}-`, 'if-range': validator!.etag } : {};

    let res: DispatchResponse;
    try {
      res = await transport.dispatchStream(target.url, { headers, ...(signal ? { signal } : {}) });
    } catch (err) {
      if (interrupted()) throw new InterruptedError();
      if (!isRetryableError(err)) throw err;
      await failed(err as CliError);
      continue;
    }

    const status = res.status;
    if (status !== 200 && status !== 206) {
      const body = await readErrorBody(res.body).then((text) => (text && transport.redact ? transport.redact(text) : text));
      if (status === 416) {
        // The bytes held do not fit the file any more: start over.
        log?.(`${target.what}: range not satisfiable, starting over`);
        validator = undefined;
        offset = 0;
        await failed(new MalformedResponseError(`The server refused to continue the ${target.what} (416).`));
        continue;
      }
      const error = statusError(status, target, body, transport.redact ? (text) => transport.redact!(text) : undefined, options.source);
      if (!RETRYABLE_STATUSES.has(status)) throw error;
      await failed(error, headerValue(res.headers, 'retry-after'));
      continue;
    }

    let start = 0;
    /** Full length of the file, when known. */
    let total: number | undefined;
    /** Where this body must end (the file's length once it is written), when known. */
    let end: number | undefined;
    if (status === 206) {
      const range = parseContentRange(headerValue(res.headers, 'content-range'));
      const fits =
        ranged &&
        range !== undefined &&
        range.start === offset &&
        (range.total === undefined || range.end === range.total - 1) &&
        (validator!.total === undefined || range.total === undefined || range.total === validator!.total);
      if (!fits) {
        res.body.discard();
        log?.(`${target.what}: the partial answer does not match what was asked, starting over`);
        validator = undefined;
        offset = 0;
        await failed(new MalformedResponseError(`The server answered a range request for the ${target.what} with a mismatched Content-Range.`));
        continue;
      }
      start = offset;
      total = range.total ?? validator!.total;
      end = total ?? range.end + 1;
      resumed = true;
    } else {
      // A 200 to a ranged request means the validator no longer matches: the file changed.
      if (ranged) log?.(`${target.what}: the file changed on the server, starting over`);
      total = parseLength(headerValue(res.headers, 'content-length'));
      end = total;
      validator = validatorOf(res, total);
      offset = 0;
    }

    try {
      checkContentType(kind, res.headers['content-type'], what);
      if (end !== undefined && end > cap) throw tooLargeError(kind, cap, what, end);
      if (end === undefined && !selfDelimited(res)) {
        throw new MalformedResponseError(`The server sent ${what} without a length, ended only by closing the connection, so it cannot be shown complete.`);
      }
    } catch (err) {
      res.body.discard();
      await sink.discard();
      throw err;
    }
    let writer: SinkWriter;
    try {
      if (status === 200) await sink.remember(target.url, validator);
      writer = await sink.open(start);
    } catch (err) {
      res.body.discard();
      return asLocal(target)(err);
    }
    options.onStart?.(end, start);
    const onBytes = options.onBytes;
    /** A failure of the socket while reading: the bytes that arrived are still on disk. */
    let sourceError: unknown;
    try {
      ({ sourceError } = await pumpBody(res.body, writer, {
        onChunk(bytes) {
          received += bytes;
          onBytes?.(bytes);
        },
        // From offset 0, the first bytes are held until the magic can be judged: an HTML page
        // is refused before any of it is written or the rest is downloaded.
        ...(start === 0 ? { checkHead: (first: Buffer) => checkMagic(kind, first, what) } : {}),
        maxBytes: cap - start,
        tooLarge: () => tooLargeError(kind, cap, what),
      }));
    } catch (err) {
      if (err instanceof MalformedResponseError) {
        await sink.discard();
        throw err;
      }
      if (interrupted()) throw new InterruptedError();
      return asLocal(target)(err);
    }
    if (interrupted()) throw new InterruptedError(); // the `.part` and its sidecar stay for the rerun
    if (sourceError !== undefined) {
      const mapped = transport.streamError?.(sourceError, target.url, signal) ?? (sourceError as CliError);
      if (!isRetryableError(mapped) && !isRetryableError(sourceError)) throw mapped;
      offset = sink.size();
      await failed(
        mapped instanceof NetworkError ? mapped : new NetworkError(`The connection dropped while fetching the ${target.what}.`, { cause: sourceError }),
      );
      continue;
    }

    const held = sink.size();
    if (end !== undefined && held < end) {
      // The body ended early without an error: a truncated answer, continued like a dropped one.
      offset = held;
      await failed(new NetworkError(`The server sent ${held} of ${end} bytes of the ${target.what} and stopped.`));
      continue;
    }
    const size = await sink.finish(kind, total, what);
    return { received, size, resumed };
  }
}

/** Downloads `target` to `path` through `<path>.part`, atomically, under the file's lock. */
export function downloadFile(target: MediaTarget, path: string, options: DownloadOptions): Promise<DownloadResult> {
  return fetchToSink(target, fileSink(path), options);
}

/** Streams `target` to `out` (stdout for `-o -`), verifying on the fly. */
export function downloadToStream(target: MediaTarget, out: Writable, options: DownloadOptions): Promise<DownloadResult> {
  return fetchToSink(target, streamSink(out), options);
}
