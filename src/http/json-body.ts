/**
 * A JSON answer's body, read and checked: capped in size (an error body is cut, an answer
 * refused), parsed, refused when empty, HTML, not JSON or nested too deep to walk.
 */
import type { Readable } from 'node:stream';
import { type CliError, MalformedResponseError } from '../errors.js';
import { MAX_JSON_DEPTH, maxDepth } from '../util/depth.js';
import { readCapped } from './read-capped.js';

/**
 * Reads a body into memory up to `cap` bytes. Past the cap, `overCap` says what happens:
 * 'fail' (an answer we need whole) raises MalformedResponseError; 'truncate' (an error
 * body, read only to quote the server's message) keeps what arrived and drops the rest,
 * so the status still decides the outcome and whether to retry.
 */
export async function readCappedBody(
  body: Readable,
  cap: number,
  overCap: 'fail' | 'truncate',
  url: URL,
  what: string,
  map: { networkError: (err: unknown) => CliError; redact: (text: string) => string },
): Promise<Buffer> {
  let read: { bytes: Buffer; truncated: boolean };
  try {
    read = await readCapped(body, cap);
  } catch (err) {
    throw map.networkError(err);
  }
  if (read.truncated && overCap === 'fail') {
    throw new MalformedResponseError(`The answer to ${what} is larger than ${Math.round(cap / 1024)} KiB; refusing to read it.`, {
      hint: 'The base URL may point at something other than the exercise service.',
      details: { url: map.redact(url.href), limitBytes: cap },
    });
  }
  return read.bytes;
}

export function parseJsonBody(bytes: Buffer, contentType: string, url: URL, what: string, redact: (text: string) => string): unknown {
  const text = bytes.toString('utf8');
  const malformed = (message: string): MalformedResponseError =>
    new MalformedResponseError(message, {
      hint: 'Check the base URL points at the exercise service; run with --verbose to see the request.',
      details: { url: redact(url.href), contentType: contentType || undefined },
    });
  if (/^\s*$/.test(text)) throw malformed(`The service sent an empty answer to ${what}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (/html/i.test(contentType) || /^\s*</.test(text)) throw malformed(`The service answered ${what} with an HTML page, not JSON.`);
    throw malformed(`The answer to ${what} is not valid JSON (truncated or corrupt).`);
  }
  // Refused before anything walks it: deep nesting overflows every recursive walk (util/depth.ts).
  if (maxDepth(parsed, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)
    throw malformed(`The answer to ${what} nests deeper than ${MAX_JSON_DEPTH} levels; refusing to read it.`);
  return parsed;
}
