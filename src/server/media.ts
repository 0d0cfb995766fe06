/**
 * Premium media streamed from the catalogue directory, with Range, If-Range and If-None-Match. A name
 * that could reach outside the directory is a 404, as is anything but a regular file within the cap.
 */
import { realpath } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import rangeParser from 'range-parser';
import { MEDIA, type MediaFolder, kindOfFolder } from '../catalogue/media.js';
import { HttpError, firstValue, ifNoneMatchHits, notFound } from './http-error.js';
import { indexedMediaPath } from '../catalogue/catalogue-dir.js';
import { MEDIA_SIZE_CAP_BYTES } from '../defaults.js';
import { openRegularFile } from '../util/safe-open.js';

/** A decoded path segment safe as one file name: no dot segment, separator or control character. */
function isSafeComponent(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !/[/\\\u0000-\u001f\u007f]/.test(value);
}

/** Where /<kind>/<id>/premium/<fileName> lies under `root`; undefined when the request cannot name a file there. */
export function mediaPath(root: string, kind: MediaFolder, id: string, fileName: string): string | undefined {
  const suffix = MEDIA[kindOfFolder(kind)].extension;
  const name = fileName.slice(0, -suffix.length);
  if (!fileName.endsWith(suffix) || !isSafeComponent(id) || !isSafeComponent(name)) return undefined;
  const path = join(root, kind, id, 'premium', name + suffix);
  return path.startsWith(root + sep) ? path : undefined;
}

/** The file for /<kind>/<id>/premium/<name>, checked to stay inside `root` through links; undefined when none can be named. */
export async function resolveMediaFile(root: string, kind: MediaFolder, id: string, fileName: string): Promise<string | undefined> {
  if (!fileName.endsWith(MEDIA[kindOfFolder(kind)].extension)) return undefined;
  // A file `mirror` stored under a safe name is found through the catalogue's index.
  const indexed = await indexedMediaPath(root, kind, id, fileName);
  const candidate = indexed !== undefined ? join(root, ...indexed.split('/')) : mediaPath(root, kind, id, fileName);
  if (candidate === undefined || !candidate.startsWith(root + sep)) return undefined;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
    return realFile.startsWith(realRoot + sep) ? realFile : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes read per chunk sent: larger than Node's 64 KiB default, for fewer reads and writes per file. */
const READ_CHUNK = 1024 * 1024;

function etagFor(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

/** If-Range holds when it names the current ETag (strong match) or the current Last-Modified date. */
function ifRangeHolds(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && date >= Date.parse(lastModified);
}

/** Streams `file` as the answer to `req` (GET or HEAD). */
export async function sendMediaFile(req: IncomingMessage, res: ServerResponse, file: string, kind: MediaFolder): Promise<void> {
  let opened;
  try {
    opened = await openRegularFile(file, { maxBytes: MEDIA_SIZE_CAP_BYTES[kindOfFolder(kind)] });
  } catch {
    throw notFound('No such media file.');
  }
  const { handle, stat: info } = opened;
  let streaming = false;
  try {
    const size = info.size;
    const etag = etagFor(size, info.mtimeMs);
    const lastModified = info.mtime.toUTCString();
    const headers: Record<string, string> = {
      'Content-Type': MEDIA[kindOfFolder(kind)].contentType,
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      'Cache-Control': 'private, max-age=3600',
    };

    if (ifNoneMatchHits(firstValue(req.headers['if-none-match']), etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }

    let start = 0;
    let end = size - 1;
    let status = 200;
    const range = firstValue(req.headers.range);
    if (range !== undefined && ifRangeHolds(firstValue(req.headers['if-range']), etag, lastModified)) {
      const parsed = rangeParser(size, range, { combine: true });
      if (parsed === -1 || parsed === -2 || parsed.type !== 'bytes') {
        throw new HttpError(416, 'range_not_satisfiable', `Range "${range.slice(0, 100)}" cannot be served from ${size} bytes.`, undefined, {
          'Content-Range': `bytes */${size}`,
          'Accept-Ranges': 'bytes',
        });
      }
      // Several disjoint ranges would need multipart/byteranges; answering with the whole file is allowed.
      if (parsed.length === 1) {
        const only = parsed[0] as rangeParser.Range;
        start = only.start;
        end = only.end;
        status = 206;
        headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
      }
    }
    headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
    res.writeHead(status, headers);
    if (req.method === 'HEAD' || size === 0) {
      res.end();
      return;
    }
    streaming = true;
    const stream = handle.createReadStream({ start, end, autoClose: true, highWaterMark: READ_CHUNK });
    await pipeline(stream, res).catch(() => {
      res.destroy();
    });
  } finally {
    if (!streaming) await handle.close().catch(() => {});
  }
}
