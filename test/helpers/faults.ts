/**
 * Fault injection for the catalogue server's `intercept` hook, shared by the test suites.
 * test/helpers/faults.test.ts shows each of these produces its fault, promptly.
 */
import type { ServerResponse } from 'node:http';

type WriteFn = (chunk: Buffer | string, ...rest: unknown[]) => boolean;

/**
 * Lets the real server answer, but drops the connection once `limit` body bytes have gone out,
 * as a connection dropped mid-body would: the bytes before the cut are sent, and `dropAfterMs`
 * later (time for the client to take them: a node:http client throws away what it had not yet
 * read when its socket closes) the socket is destroyed. Nothing more is sent and the response is
 * never ended, so the client sees fewer bytes than the Content-Length and an error at once, not
 * after an idle timeout.
 *
 * `dropWhen`: instead of that time, the socket is destroyed once the promise settles (the test
 * resolves it when its client has counted the bytes before the cut), so where the client resumes
 * from does not depend on how fast it was scheduled.
 */
export function cutResponseAfter(res: ServerResponse, limit: number, options: { dropAfterMs?: number; dropWhen?: Promise<unknown> } = {}): void {
  const dropAfterMs = options.dropAfterMs ?? 100;
  const { dropWhen } = options;
  // Taken now: once a response has ended, res.socket is null and there would be nothing to cut.
  const socket = res.socket;
  let sent = 0;
  let cut = false;
  const write = res.write.bind(res) as WriteFn;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const patched: WriteFn = (chunk, ...rest) => {
    if (cut) return false;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (sent + bytes.length >= limit) {
      cut = true;
      const last = bytes.subarray(0, limit - sent);
      sent = limit;
      // Destroyed once the last bytes are flushed to the socket and had time to be read (or were).
      const drop = (): void => void socket?.destroy();
      write(last, () => (dropWhen ? void dropWhen.finally(drop) : setTimeout(drop, dropAfterMs)));
      return false;
    }
    sent += bytes.length;
    return write(bytes, ...rest);
  };
  (res as unknown as { write: WriteFn }).write = patched;
  (res as unknown as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
    const [chunk] = args;
    if (!cut && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) patched(chunk);
    // A cut response is never ended: ending it would look like a complete answer on a kept-alive connection.
    return cut ? res : end(...args.filter((a) => typeof a === 'function'));
  };
}

/**
 * Answers with `body` written slowly, `chunkBytes` every `intervalMs`, with no Content-Length
 * (chunked framing): a server whose file takes a while and whose length is not known up front.
 */
export function dripResponse(res: ServerResponse, body: Buffer, options: { contentType: string; chunkBytes: number; intervalMs: number }): void {
  res.writeHead(200, { 'content-type': options.contentType });
  let at = 0;
  const step = (): void => {
    if (res.destroyed) return;
    if (at >= body.length) {
      res.end();
      return;
    }
    const next = body.subarray(at, at + options.chunkBytes);
    at += next.length;
    res.write(next);
    setTimeout(step, options.intervalMs);
  };
  step();
}

/**
 * Answers with `body` delimited only by closing the connection (no Content-Length, no chunked
 * framing, as an HTTP/1.0 server would), optionally closing after `cutAfter` bytes: then the
 * client gets a short body that looks exactly like a complete one.
 */
export function closeDelimitedResponse(res: ServerResponse, body: Buffer, options: { contentType: string; cutAfter?: number }): void {
  res.useChunkedEncodingByDefault = false; // no framing at all: the body ends where the connection does
  res.shouldKeepAlive = false;
  res.writeHead(200, { 'content-type': options.contentType, connection: 'close' });
  res.end(options.cutAfter === undefined ? body : body.subarray(0, options.cutAfter));
}

/**
 * Answers with `head` followed by filler for ever (no Content-Length, or the `announce`d one):
 * an endless body that passes the magic-bytes check. Stops once the client goes away.
 */
export function endlessResponse(res: ServerResponse, head: Buffer, options: { contentType: string; announce?: number }): void {
  res.writeHead(200, { 'content-type': options.contentType, ...(options.announce !== undefined ? { 'content-length': String(options.announce) } : {}) });
  const filler = Buffer.alloc(256 * 1024, 0x42);
  res.write(head);
  const pump = (): void => {
    while (!res.destroyed && res.write(filler));
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => res.off('drain', pump));
  pump();
}
