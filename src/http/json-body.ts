/**
 * A JSON answer's body, read and checked: the transport layer (exchange.ts) that reads each
 * answer's body whole within its cap (an error body is cut, an answer refused), and the parse
 * that refuses a body empty, HTML, not JSON or nested too deep to walk.
 */
import { MalformedResponseError } from '../errors.js';
import { MAX_JSON_DEPTH, maxDepth } from '../catalogue/validate.js';
import { ERROR_BODY_CAP, JSON_SIZE_CAP } from '../defaults.js';
import type { DispatchedBody } from './dispatch-body.js';
import type { Exchange } from './exchange.js';

/**
 * Reads `body` up to `cap` bytes. When it holds more, the rest is not read: the body is
 * discarded and `truncated` is true, so a huge or endless answer never fills memory. A body
 * that fails (already mapped to the project's error by the transport) rejects with it.
 */
export function readWhole(body: DispatchedBody, cap: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const whole = (): Buffer => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    body.start({
      onData(chunk) {
        if (settled) return true;
        if (size + chunk.length > cap) {
          chunks.push(chunk.subarray(0, cap - size));
          size = cap;
          settled = true;
          resolve({ bytes: whole(), truncated: true });
          body.discard();
          return true;
        }
        size += chunk.length;
        chunks.push(chunk);
        return true;
      },
      onEnd() {
        if (settled) return;
        settled = true;
        resolve({ bytes: whole(), truncated: false });
      },
      onError(err) {
        if (settled) return;
        settled = true;
        reject(err);
      },
    });
  });
}

/**
 * The layer: a 2xx body whole within JSON_SIZE_CAP (past it, MalformedResponseError); any other
 * body only up to ERROR_BODY_CAP, read to quote the server's message, the rest dropped, so the
 * status still decides the outcome and whether to retry.
 */
export function wholeBodies(next: Exchange, redact: (text: string) => string): Exchange<Buffer> {
  return async (request) => {
    const res = await next(request);
    const ok = res.status >= 200 && res.status < 300;
    const cap = ok ? JSON_SIZE_CAP : ERROR_BODY_CAP;
    const read = await readWhole(res.body, cap);
    if (read.truncated && ok) {
      throw new MalformedResponseError(`The answer to ${request.what} is larger than ${Math.round(cap / 1024)} KiB; refusing to read it.`, {
        hint: 'The base URL may point at something other than the exercise service.',
        details: { url: redact(request.url.href), limitBytes: cap },
      });
    }
    return { status: res.status, headers: res.headers, body: read.bytes };
  };
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
