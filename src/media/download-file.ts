/**
 * Downloads one media file: streamed to `<file>.part`, verified, then renamed, so a failed download never
 * leaves a file under the final name. A drop, or a `.part` an earlier run left, is resumed with Range +
 * If-Range when the server offered ranges and a strong ETag; else it starts over. One writer per file
 * (its lock, held until the rename). Completeness is shown, never assumed (a length, or chunked framing
 * ending cleanly); a size cap per kind. A failure that brought new bytes uses up no attempt.
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

/** A failure of the local disk: never retried; exit 6 with the file and the reason. */
export function localWriteError(err: unknown, target?: MediaTarget): CliError {
  if (err instanceof CliError) return err;
  const path = (err as { path?: unknown }).path;
  return new WriteFailedError(typeof path === 'string' ? path : target ? `the ${target.what}` : 'the file', reasonOf(err), {
    hint: 'Check that --dir (or -o) names a writable directory with enough free space.',
    cause: err,
  });
}

function asLocal(target: MediaTarget): (err: unknown) => never {
  return (err) => {
    throw localWriteError(err, target);
  };
}

/** Streams `target` into `sink`, resuming and retrying as the module comment says; throws the project's errors. */
export async function fetchToSink(target: MediaTarget, sink: Sink, options: DownloadOptions): Promise<DownloadResult> {
  const notice = options.notice ?? options.log;
  try {
    const claimed = await sink
      .claim(target.kind, {
        waitMs: options.lockWaitMs ?? MEDIA_LOCK_WAIT_MS,
        what: target.what,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(notice ? { onWait: notice } : {}),
        ...(options.skipComplete ? { skipComplete: true } : {}),
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
 * The request / verify / resume loop, with the file claimed: a socket failure or a short body is a
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
    // The bytes are on disk: the next request may go while this file is checked.
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
      await failed(new NetworkError(`The server sent ${point.offset} of ${answer.end} bytes of the ${target.what} and stopped.`));
    } else {
      return { received, size: await sink.finish(target.kind, answer.total, `the ${target.what}`), resumed };
    }
  }
}

/**
 * Writes the answer's body after the bytes held; returns the socket's failure while reading, if any.
 * Before a byte is written the answer is judged whole (type, cap, length or framing); an HTML page is
 * refused by its first bytes, and a body growing past the cap is cut.
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
    const body = options.rateLimit ? options.rateLimit.throttle(res.body) : res.body;
    const { sourceError } = await pumpBody(body, writer, {
      onChunk(bytes) {
        onChunk(bytes);
        onBytes?.(bytes);
      },
      // From offset 0 the first bytes are held until the magic is judged: an HTML page is refused unwritten.
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

/** The failure count of a file `start` bytes of which are held; `held` reads the bytes held now. */
function retryBudget(held: () => number, start: number, options: Pick<DownloadOptions, 'settings' | 'signal' | 'log'>, what: string): CountFailure {
  /** Failures since the last new byte reached the disk. */
  let fruitless = 0;
  let attempts = 0;
  /** Furthest point ever held: only getting past it is progress. */
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
