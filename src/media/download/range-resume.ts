/** Range and resume: what a response says about the bytes it carries, the validator for `Range` + `If-Range`, and the sidecar keeping it between runs. */
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { type ResponseHeaders, headerValue } from '../../http/transport.js';
import { WRITE_NEW_FLAGS } from './link-safety.js';
import { lstatOrUndefined } from '../../util/real-dir.js';

/** What makes the bytes of a `.part` safe to continue: byte ranges offered and a strong ETag. */
export interface Validator {
  etag: string;
  total?: number;
}

/** Where the next request starts: the bytes held and their validator. */
export interface ResumePoint {
  offset: number;
  validator?: Validator;
}

interface Sidecar extends Validator {
  version: 1;
  url: string;
}

/** A decimal Content-Length; undefined when absent, malformed or beyond 2^53. */
export function parseLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

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
export function validatorOf(res: { headers: ResponseHeaders }, total: number | undefined): Validator | undefined {
  const ranges = headerValue(res.headers, 'accept-ranges');
  const etag = headerValue(res.headers, 'etag')?.trim();
  if (!ranges || !/\bbytes\b/i.test(ranges) || !etag || etag.startsWith('W/')) return undefined;
  return { etag, ...(total !== undefined ? { total } : {}) };
}

/**
 * Whether chunked framing marks where the body ends: then a body without Content-Length ended cleanly is
 * complete. One delimited only by the connection closing never is (a drop and an end look the same).
 */
export function selfDelimited(res: { headers: ResponseHeaders }): boolean {
  const coding = headerValue(res.headers, 'transfer-encoding');
  return coding !== undefined && /(^|,)\s*chunked\s*$/i.test(coding);
}

export function sidecarPath(part: string): string {
  return `${part}.json`;
}

/** The validator kept beside `part` for `url` when it fits the `held` bytes; else undefined. */
export async function readSidecar(part: string, url: URL, held: number): Promise<Validator | undefined> {
  try {
    const data = JSON.parse(await readFile(sidecarPath(part), 'utf8')) as Partial<Sidecar>;
    if (data.version !== 1 || data.url !== url.href || typeof data.etag !== 'string' || data.etag === '') return undefined;
    const total = typeof data.total === 'number' ? data.total : undefined;
    if (total !== undefined && held > total) return undefined;
    return { etag: data.etag, ...(total !== undefined ? { total } : {}) };
  } catch {
    return undefined;
  }
}

/** Removes `path` (a file or a link, never what it leads to); nothing there is fine. */
export async function removeIfAny(path: string): Promise<void> {
  if (lstatOrUndefined(path))
    await unlink(path).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
}

/** Writes the sidecar through a new name, then renames it. */
export async function writeSidecar(part: string, url: URL, validator: Validator): Promise<void> {
  const sidecar = sidecarPath(part);
  const tmp = `${sidecar}.tmp`;
  const data: Sidecar = { version: 1, url: url.href, ...validator };
  await removeIfAny(tmp);
  await writeFile(tmp, JSON.stringify(data), { flag: WRITE_NEW_FLAGS });
  await rename(tmp, sidecar);
}
