/** Verification of downloaded media: the Content-Type when present, the magic bytes and the length; a failure is never renamed into place. */
import { MalformedResponseError } from '../errors.js';
import { MAGIC_BYTES, MEDIA, PNG_SIGNATURE, type MediaKind, hasMagic } from '../catalogue/media.js';
import { MEDIA_SIZE_CAP_BYTES } from '../defaults.js';
import { lstatOrUndefined } from '../util/real-dir.js';
import { openRegularFile } from '../util/safe-open.js';

export { MAGIC_BYTES, PNG_SIGNATURE, hasMagic };

/**
 * Content types accepted besides the exact one: generic stores and CDNs send octet-stream, still held to
 * the magic and length checks. Anything else (text/html, …) is not the media.
 */
const TOLERATED_TYPES = new Set(['application/octet-stream']);

/** Throws when a Content-Type is present and neither the kind's type nor tolerated. */
export function checkContentType(kind: MediaKind, header: string | string[] | undefined, what: string): void {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return;
  const type = (value.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (type === MEDIA[kind].contentType || TOLERATED_TYPES.has(type)) return;
  throw new MalformedResponseError(`The server sent ${type} instead of ${MEDIA[kind].description} for ${what}.`);
}

export function checkMagic(kind: MediaKind, head: Buffer, what: string): void {
  if (!hasMagic(kind, head)) {
    throw new MalformedResponseError(`The bytes received for ${what} are not ${MEDIA[kind].description} (wrong signature).`);
  }
}

/** Throws when the size on disk differs from the length announced. */
export function checkLength(expected: number | undefined, actual: number, what: string): void {
  if (expected !== undefined && expected !== actual) {
    throw new MalformedResponseError(`The server announced ${expected} bytes for ${what} but ${actual} arrived.`);
  }
}

/** The largest file of `kind` accepted. */
export function mediaSizeCap(kind: MediaKind, override?: number): number {
  return override ?? MEDIA_SIZE_CAP_BYTES[kind];
}

function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/** The refusal of media over its cap: `announced` when said up front (nothing written), else it grew past (removed). */
export function tooLargeError(kind: MediaKind, cap: number, what: string, announced?: number): MalformedResponseError {
  const limit = `the ${sizeText(cap)} allowed for ${MEDIA[kind].description}`;
  return new MalformedResponseError(
    announced !== undefined
      ? `The server announced ${announced} bytes for ${what}, more than ${limit}; nothing was written.`
      : `The server sent more than ${limit} for ${what}; the download was stopped and what arrived removed.`,
    { details: { cap, ...(announced !== undefined ? { announced } : {}) } },
  );
}

/** Whether a file on disk looks like complete media of the kind: regular, non-empty, the right magic. */
export async function looksComplete(kind: MediaKind, path: string): Promise<boolean> {
  // Most files of a bulk run are missing: a cheap lstat first.
  if (!lstatOrUndefined(path)) return false;
  const opened = await openRegularFile(path, { maxBytes: Number.MAX_SAFE_INTEGER }).catch(() => undefined);
  if (!opened) return false;
  try {
    const head = Buffer.alloc(MAGIC_BYTES);
    const { bytesRead } = await opened.handle.read(head, 0, MAGIC_BYTES, 0);
    return hasMagic(kind, head.subarray(0, bytesRead));
  } catch {
    return false;
  } finally {
    await opened.handle.close();
  }
}
