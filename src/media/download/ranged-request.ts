/**
 * One request for the bytes not held yet (`Range` + `If-Range` when they can be continued), and where its
 * body goes. An unusable answer counts as a failure and the caller asks again; one never to retry throws.
 */
import { AuthError, type CliError, InterruptedError, MalformedResponseError, NotFoundError } from '../../errors.js';
import { errorForStatus } from '../../http/failures.js';
import type { BodySource } from '../../http/exchange.js';
import { readSmall } from './body-pump.js';
import { type DispatchResponse, headerValue } from '../../http/transport.js';
import { RETRYABLE_STATUSES, isRetryableError } from '../../http/retry-policy.js';
import { type ResumePoint, parseContentRange, parseLength, validatorOf } from './range-resume.js';
import type { CountFailure, DownloadOptions, MediaSource, MediaTarget } from './types.js';

/** A usable answer: its body, and the bounds of the bytes it carries. */
export interface Answer {
  res: DispatchResponse;
  start: number;
  total?: number;
  /** Where this body must end, when known. */
  end?: number;
  /** A 206 continuing bytes held. */
  resumed: boolean;
}

/** Sends the request from `point` (reset by a 200 or a refusal); the answer, or undefined after a failure `failed` allows retrying. */
export async function requestRange(target: MediaTarget, point: ResumePoint, options: DownloadOptions, failed: CountFailure): Promise<Answer | undefined> {
  const { transport, signal, log } = options;
  const redact = transport.redact?.bind(transport);
  const ranged = point.offset > 0 && point.validator !== undefined;
  if (!ranged) point.offset = 0;
  const headers: Record<string, string> = ranged ? { range: `bytes=${point.offset}-`, 'if-range': point.validator!.etag } : {};

  let res: DispatchResponse;
  try {
    res = await transport.dispatchStream(target.url, {
      headers,
      ...(signal ? { signal } : {}),
      ...(options.minBytesPerSecond !== undefined ? { minBytesPerSecond: options.minBytesPerSecond } : {}),
    });
  } catch (err) {
    if (signal?.aborted === true) throw new InterruptedError();
    if (!isRetryableError(err)) throw err;
    await failed(err as CliError);
    return undefined;
  }

  const status = res.status;
  if (status !== 200 && status !== 206) {
    const body = await readErrorBody(res.body).then((text) => (text && redact ? redact(text) : text));
    if (status === 416) {
      // The bytes held do not fit the file any more: start over.
      log?.(`${target.what}: range not satisfiable, starting over`);
      forget(point);
      await failed(new MalformedResponseError(`The server refused to continue the ${target.what} (416).`));
      return undefined;
    }
    const error = statusError(status, target, body, redact, options.source);
    if (!RETRYABLE_STATUSES.has(status)) throw error;
    await failed(error, headerValue(res.headers, 'retry-after'));
    return undefined;
  }

  if (status === 206) {
    const range = parseContentRange(headerValue(res.headers, 'content-range'));
    const validator = point.validator;
    const fits =
      ranged &&
      range !== undefined &&
      range.start === point.offset &&
      (range.total === undefined || range.end === range.total - 1) &&
      (validator!.total === undefined || range.total === undefined || range.total === validator!.total);
    if (!fits) {
      res.body.discard();
      log?.(`${target.what}: the partial answer does not match what was asked, starting over`);
      forget(point);
      await failed(new MalformedResponseError(`The server answered a range request for the ${target.what} with a mismatched Content-Range.`));
      return undefined;
    }
    const total = range.total ?? validator!.total;
    return { res, start: point.offset, ...(total !== undefined ? { total } : {}), end: total ?? range.end + 1, resumed: true };
  }

  // A 200 to a ranged request means the validator no longer matches: the file changed.
  if (ranged) log?.(`${target.what}: the file changed on the server, starting over`);
  const total = parseLength(headerValue(res.headers, 'content-length'));
  const validator = validatorOf(res, total);
  forget(point);
  if (validator) point.validator = validator;
  return { res, start: 0, ...(total !== undefined ? { total, end: total } : {}), resumed: false };
}

function forget(point: ResumePoint): void {
  delete point.validator;
  point.offset = 0;
}

/** A 404 said by whoever answered: "The service has no …", "This catalogue has no …". */
function notFound(target: MediaTarget, status: number, source: MediaSource | undefined): NotFoundError {
  const details = { status, url: target.url.href };
  const listHint = '`exercises show <id>` lists the premiumImages and premiumVideos of an exercise.';
  if (source?.kind === 'catalogue') {
    return new NotFoundError(`This catalogue has no ${target.what} (${source.dir}).`, {
      hint: `The directory holds only the media copied into it (a mirror made without that kind has none); ${listHint}`,
      details: { ...details, catalogue: source.dir },
    });
  }
  const message = source?.kind === 'sample' ? `The sample catalogue (--sandbox) has no ${target.what}.` : `The service has no ${target.what} (404).`;
  return new NotFoundError(message, { hint: listHint, details });
}

function statusError(status: number, target: MediaTarget, body: string | undefined, redact?: (text: string) => string, source?: MediaSource): CliError {
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
  if (status === 404) return notFound(target, status, source);
  // The redactor again on the decoded message: a key spelled with JSON escapes is whole only once decoded.
  return errorForStatus(status, `the ${target.what}`, body, redact);
}

/** Reads at most 64 KiB of an error body, then lets go of it. */
async function readErrorBody(body: BodySource): Promise<string | undefined> {
  const bytes = await readSmall(body, 64 * 1024);
  return bytes.length > 0 ? bytes.toString('utf8') : undefined;
}
