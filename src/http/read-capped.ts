/** Reading a response body into memory, never more than a cap. */
import type { Readable } from 'node:stream';

/**
 * Reads `body` up to `cap` bytes. When it holds more, the rest is not read: the body is
 * destroyed and `truncated` is true, so a huge or endless answer never fills memory.
 * Socket errors while reading reject as they come.
 */
export async function readCapped(body: Readable, cap: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    size += chunk.length;
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}
