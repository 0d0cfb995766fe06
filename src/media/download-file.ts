/**
 * Downloads one media file: streamed from the socket to `<file>.part` (never held in memory),
 * verified, then renamed to its final name. A failed or interrupted download never leaves a
 * file under the final name. A dropped connection is resumed in the same run from the bytes
 * already on disk, and a leftover `.part` from an earlier run is continued the same way — with
 * `Range` + `If-Range`, only when the server had offered `Accept-Ranges: bytes` and a strong
 * `ETag` (kept in the sidecar `<file>.part.json`); otherwise it starts over.
 *
 * This module is the loop of one transfer and the reading of each body into its sink; the
 * sinks, the request with Range, the body pump and the count of failures are modules of their
 * own under ./download/.
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
 * file. A failure that brought new bytes to disk does not use up an attempt: a flaky connection
 * that keeps making progress still finishes (retryBudget).
 */
import type { Writable } from 'node:stream';
import { CliError, InterruptedError, MalformedResponseError, NetworkError, WriteFailedError } from '../errors.js';
import { reasonOf } from '../util/write-all.js';
import { decideRetry, isRetryableError, sleep } from '../http/retry-policy.js';
import { MEDIA_LOCK_WAIT_MS } from '../defaults.js';
import { checkContentType, checkMagic, mediaSizeCap, tooLargeError } from './verify.js';
import { fileSink } from './download/file-sink.js';
import { streamSink } from './download/stream-sink.js';
import { type Answer, requestRange } from './download/ranged-request.js';
import { type ResumePoint, selfDelimited } from './download/range-resume.js';
import { pumpBody } from './download/body-pump.js';
import type { CountFailure, DownloadOptions, DownloadResult, MediaTarget, Sink, SinkWriter } from './download/types.js';

export type { DownloadOptions, DownloadResult, MediaSource, MediaTarget } from './download/types.js';

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
    throw localWriteError(err, target);
  };
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

/**
 * The request / verify / resume loop, with the file claimed: each turn one request, its body,
 * and the check that the file is whole. A socket failure or a body that stopped short is a
 * failure the budget may retry from the bytes held; a whole file is verified and renamed by its sink.
 */
async function transfer(target: MediaTarget, sink: Sink, options: DownloadOptions): Promise<DownloadResult> {
  const { signal, transport } = options;
  const interrupted = (): boolean => signal?.aborted === true;
  const { offset, validator } = await sink.resumeState(target.url).catch(asLocal(target));
  // A complete `.part` left just before its rename needs no request at all.
  if (validator?.total !== undefined && offset === validator.total && offset > 0 && offset <= mediaSizeCap(target.kind, options.maxBytes)) {
    await sink.open(offset).catch(asLocal(target));
    return { received: 0, size: await sink.finish(target.kind, validator.total, `the ${target.what}`), resumed: true };
  }
  const point: ResumePoint = { offset, ...(validator ? { validator } : {}) };
  const failed = retryBudget(() => sink.size(), point.offset, options, target.what);
  let resumed = false;
  let received = 0;
  for (;;) {
    if (interrupted()) throw new InterruptedError();
    await options.requestSlot?.take(signal);
    // A throw keeps the slot: the bulk engine gives it back once it has seen the failure.
    const answer = await requestRange(target, point, options, failed);
    let sourceError: unknown;
    if (answer !== undefined) {
      if (answer.resumed) resumed = true;
      sourceError = await receiveBody(target, sink, answer, point, options, (bytes) => (received += bytes));
    }
    // The bytes are on disk: the next request may go while this file is checked and renamed.
    options.requestSlot?.release();
    if (answer === undefined) continue;
    if (interrupted()) throw new InterruptedError(); // the `.part` and its sidecar stay for the rerun
    point.offset = sink.size();
    if (sourceError !== undefined) {
      const mapped = transport.streamError?.(sourceError, target.url, signal) ?? (sourceError as CliError);
      if (!isRetryableError(mapped) && !isRetryableError(sourceError)) throw mapped;
      await failed(
        mapped instanceof NetworkError ? mapped : new NetworkError(`The connection dropped while fetching the ${target.what}.`, { cause: sourceError }),
      );
    } else if (answer.end !== undefined && point.offset < answer.end) {
      // The body ended early without an error: a truncated answer, continued like a dropped one.
      await failed(new NetworkError(`The server sent ${point.offset} of ${answer.end} bytes of the ${target.what} and stopped.`));
    } else {
      return { received, size: await sink.finish(target.kind, answer.total, `the ${target.what}`), resumed };
    }
  }
}

/**
 * Writes the answer's body after the bytes held; `onChunk` is told each chunk's size. Returns
 * the failure of the socket while reading, if any (the bytes that arrived are still on disk).
 * Before a byte is written, the answer is judged whole (its Content-Type, the size cap, a length
 * or a framing that shows where it ends); a fresh file remembers its validator for a later
 * resume; then the body pump copies the bytes, refusing an HTML page by its first bytes and a
 * body that grows past the cap.
 */
async function receiveBody(
  target: MediaTarget,
  sink: Sink,
  answer: Answer,
  point: ResumePoint,
  options: DownloadOptions,
  onChunk: (bytes: number) => void,
): Promise<unknown> {
  const { kind } = target;
  const what = `the ${target.what}`;
  const cap = mediaSizeCap(kind, options.maxBytes);
  const { res, start, end } = answer;
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
    if (res.status === 200) await sink.remember(target.url, point.validator);
    writer = await sink.open(start);
  } catch (err) {
    res.body.discard();
    return asLocal(target)(err);
  }
  options.onStart?.(end, start);
  const onBytes = options.onBytes;
  try {
    // Under --limit-rate the body is read no faster than the command's shared budget allows.
    const body = options.rateLimit ? options.rateLimit.throttle(res.body) : res.body;
    const { sourceError } = await pumpBody(body, writer, {
      onChunk(bytes) {
        onChunk(bytes);
        onBytes?.(bytes);
      },
      // From offset 0, the first bytes are held until the magic can be judged: an HTML page
      // is refused before any of it is written or the rest is downloaded.
      ...(start === 0 ? { checkHead: (first: Buffer) => checkMagic(kind, first, what) } : {}),
      maxBytes: cap - start,
      tooLarge: () => tooLargeError(kind, cap, what),
    });
    return sourceError;
  } catch (err) {
    if (err instanceof MalformedResponseError) {
      await sink.discard();
      throw err;
    }
    if (options.signal?.aborted === true) throw new InterruptedError();
    return asLocal(target)(err);
  }
}

/** The failure count of a file `start` bytes of which are held; `held` reads the bytes held now (the sink's size). */
function retryBudget(held: () => number, start: number, options: Pick<DownloadOptions, 'settings' | 'signal' | 'log'>, what: string): CountFailure {
  /** Failures since the last new byte reached the disk. */
  let fruitless = 0;
  /** Attempts that failed, in all. */
  let attempts = 0;
  /** Furthest point ever held; only getting past it counts as progress. */
  let furthest = start;
  return async (err, retryAfter) => {
    if (held() > furthest) {
      furthest = held();
      fruitless = 0;
    }
    fruitless += 1;
    attempts += 1;
    const decision = decideRetry({ attempts, fruitless }, options.settings.retries, err, retryAfter);
    if (!decision.retry) throw decision.error;
    options.log?.(`${what}: ${err.message} — retrying in ${decision.delayMs} ms`);
    await sleep(decision.delayMs, options.signal);
  };
}

/** Downloads `target` to `path` through `<path>.part`, atomically, under the file's lock. */
export function downloadFile(target: MediaTarget, path: string, options: DownloadOptions): Promise<DownloadResult> {
  return fetchToSink(target, fileSink(path), options);
}

/** Streams `target` to `out` (stdout for `-o -`), verifying on the fly. */
export function downloadToStream(target: MediaTarget, out: Writable, options: DownloadOptions): Promise<DownloadResult> {
  return fetchToSink(target, streamSink(out), options);
}
