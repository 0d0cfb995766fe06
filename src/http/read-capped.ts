/** Reading a response body into memory, never more than a cap. */
import type { Readable } from 'node:stream';

/**
 * Reads `body` up to `cap` bytes. When it holds more, the rest is not read: the body is
 * destroyed and `truncated` is true, so a huge or endless answer never fills memory.
 * Socket errors while reading reject as they come, and so does a body closed before its end.
 * Plain 'data' listeners rather than async iteration: paging `--all` reads hundreds of
 * bodies, and a promise per chunk showed in its profile.
 */
export function readCapped(body: Readable, cap: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: unknown, truncated = false): void => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      if (err) reject(err);
      else resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated });
    };
    function onData(chunk: Buffer): void {
      if (size + chunk.length > cap) {
        chunks.push(chunk.subarray(0, cap - size));
        size = cap;
        settle(undefined, true);
        body.on('error', () => {}); // destroying may report an abort: nobody is reading any more
        body.destroy();
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    }
    function onEnd(): void {
      settle(undefined);
    }
    function onError(err: unknown): void {
      settle(err);
    }
    function onClose(): void {
      settle(Object.assign(new Error('The answer ended before it was complete.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    }
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
    body.once('close', onClose);
  });
}
