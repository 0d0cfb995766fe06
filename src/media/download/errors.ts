/**
 * The downloader's errors: a failure of the local disk (never retried), and the error for a
 * non-2xx media status, worded for who serves the media (types.ts MediaSource).
 */
import { AuthError, CliError, NotFoundError, WriteFailedError } from '../../errors.js';
import { reasonOf } from '../../util/write-all.js';
import { errorForStatus } from '../../http/failures.js';
import type { BodySource } from '../../http/exchange.js';
import { readSmall } from './body-pump.js';
import type { MediaSource, MediaTarget } from './types.js';

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
export function asLocal(target: MediaTarget): (err: unknown) => never {
  return (err) => {
    throw localWriteError(err, target);
  };
}

/** "The service has no …", "This catalogue has no …": a 404 said by whoever answered it. */
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

/** The error for a non-2xx media status. */
export function statusError(status: number, target: MediaTarget, body: string | undefined, redact?: (text: string) => string, source?: MediaSource): CliError {
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

/** Reads at most 64 KiB of an error body (to quote the server's message), then lets go of it. */
export async function readErrorBody(body: BodySource): Promise<string | undefined> {
  const bytes = await readSmall(body, 64 * 1024);
  return bytes.length > 0 ? bytes.toString('utf8') : undefined;
}
