/** The server's error answers, `{"error":{"code","message","parameter?"}}`: handlers throw HttpError, sendFailure writes it. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type HttpErrorCode = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'method_not_allowed' | 'range_not_satisfiable' | 'internal_error';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpErrorCode,
    message: string,
    readonly parameter?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A 400 that names the query parameter at fault. */
export function badParameter(parameter: string, message: string): HttpError {
  return new HttpError(400, 'bad_request', message, parameter);
}

export function notFound(message = 'Not found.'): HttpError {
  return new HttpError(404, 'not_found', message);
}

/** The first value of a header (a list for a repeated one). */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** RFC 9110 §13.1.2: `*`, or any listed tag equal to `etag` by weak comparison. */
export function ifNoneMatchHits(header: string | undefined, etag: string | undefined): boolean {
  const bare = etag?.replace(/^W\//, '');
  return (header ?? '').split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === bare;
  });
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/** Writes a JSON body with its length (HEAD gets the headers only). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = NO_STORE, text = JSON.stringify(body)): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** A strong ETag over `text`: a SHA-256, shortened. */
export function strongEtag(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** A 200 JSON answer a client may cache: a strong ETag (unless `withEtag` is false), If-None-Match honoured, no Cache-Control (the client's TTL applies). */
export function sendCacheableJson(req: IncomingMessage, res: ServerResponse, body: unknown, headers: Record<string, string>, withEtag: boolean): void {
  const text = JSON.stringify(body);
  const etag = withEtag ? strongEtag(text) : undefined;
  const tagged = etag === undefined ? headers : { ETag: etag, ...headers };
  if (!ifNoneMatchHits(firstValue(req.headers['if-none-match']), etag)) return sendJson(res, 200, body, tagged, text);
  res.writeHead(304, tagged);
  res.end();
}

/** An unanswerable request: its error answer (a 500 with `internalMessage` unless an HttpError), or the connection cut once the answer began. */
export function sendFailure(res: ServerResponse, err: unknown, internalMessage: string): void {
  if (res.headersSent) return void res.destroy();
  const { status, code, message, parameter, headers } = err instanceof HttpError ? err : new HttpError(500, 'internal_error', internalMessage);
  sendJson(res, status, { error: { code, message, ...(parameter !== undefined && { parameter }) } }, { ...headers, ...NO_STORE });
}
