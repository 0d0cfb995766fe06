/**
 * The server's error answers: `{"error":{"code","message","parameter?"}}` (DESIGN.md,
 * "Decisions for the interface's gaps"). Handlers throw HttpError; the router turns it into JSON.
 */
import type { ServerResponse } from 'node:http';

export type HttpErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'range_not_satisfiable'
  | 'internal_error';

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

/** Writes a JSON body with its length (HEAD requests get the headers only: node drops the body). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.parameter !== undefined) error.parameter = err.parameter;
  sendJson(res, err.status, { error }, err.headers);
}
