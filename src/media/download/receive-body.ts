/**
 * Step three of a download: the body of a usable answer into the sink. Before a byte is
 * written, the answer is judged whole (its Content-Type, the size cap, a length or a framing
 * that shows where it ends); a fresh file remembers its validator for a later resume; then the
 * body pump (body-pump.ts) copies the bytes, refusing an HTML page by its first bytes and a body
 * that grows past the cap.
 */
import { InterruptedError, MalformedResponseError } from '../../errors.js';
import { checkContentType, checkMagic, mediaSizeCap, tooLargeError } from '../verify.js';
import { pumpBody } from './body-pump.js';
import { type ResumePoint, selfDelimited } from './range-resume.js';
import { asLocal } from './errors.js';
import type { Answer } from './ranged-request.js';
import type { Sink, SinkWriter } from './sink.js';
import type { DownloadOptions, MediaTarget } from './types.js';

/**
 * Writes the answer's body after the bytes held; `onChunk` is told each chunk's size. Returns
 * the failure of the socket while reading, if any (the bytes that arrived are still on disk).
 */
export async function receiveBody(
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
