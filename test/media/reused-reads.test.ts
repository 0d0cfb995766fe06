/**
 * The body pump over the transport's sockets, whose reads go into reused buffers
 * (src/http/read-buffers.ts): the pump lets go of a read buffer only when it holds no view of
 * it, so a body written by a slow writer (the pump pausing, chunks waiting in its queue, undici
 * putting back what it has not parsed) or framed in chunks still arrives byte for byte, while
 * a fast one cycles through a few buffers instead of one per read.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodySource, pumpBody } from '../../src/media/download/body-pump.js';
import type { SinkWriter } from '../../src/media/download/types.js';
import { closeAll, serve, transport } from '../http/local-server.js';

afterEach(closeAll);

/** Bytes distinct at every offset, so a byte overwritten or out of place shows. */
function pattern(size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 7 + (i >> 8) + (i >> 16)) & 0xff;
  return body;
}

/** A writer that keeps a copy of each batch and completes it after `delayMs` (0: on the next turn). */
function writer(delayMs: number): SinkWriter & { bytes(): Buffer; writes: number } {
  const batches: Buffer[] = [];
  const w = {
    writes: 0,
    write(chunk: Buffer, done: (err: Error | null) => void) {
      w.writes++;
      batches.push(Buffer.from(chunk));
      if (delayMs > 0) setTimeout(() => done(null), delayMs);
      else setImmediate(() => done(null));
    },
    bytes: () => Buffer.concat(batches),
  };
  return w;
}

/** `source` as it is, but noting the memory behind each chunk it hands over. */
function watched(source: BodySource): BodySource & { memories: Set<ArrayBufferLike>; chunks: number } {
  const w = {
    memories: new Set<ArrayBufferLike>(),
    chunks: 0,
    start: (consumer: Parameters<BodySource['start']>[0]) =>
      source.start({
        onData(chunk) {
          w.chunks++;
          w.memories.add(chunk.buffer);
          return consumer.onData(chunk);
        },
        onEnd: () => consumer.onEnd(),
        onError: (err) => consumer.onError(err),
      }),
  };
  return w;
}

/** Serves `body` whole with its length, or (chunked) in pieces of `piece` bytes with no length. */
function sendBody(res: ServerResponse, body: Buffer, chunked: boolean, piece = 50_000): void {
  res.writeHead(200, { 'content-type': 'video/mp4', ...(chunked ? {} : { 'content-length': String(body.length) }) });
  if (!chunked) {
    res.end(body);
    return;
  }
  let at = 0;
  const next = (): void => {
    if (at >= body.length) {
      res.end();
      return;
    }
    const ok = res.write(body.subarray(at, (at += piece)));
    if (ok) setImmediate(next);
    else res.once('drain', next);
  };
  next();
}

async function pumpThrough(body: Buffer, options: { chunked: boolean; delayMs: number; batchBytes?: number }) {
  const { url } = await serve((_req, res) => sendBody(res, body, options.chunked));
  const res = await transport({ baseUrl: url }).dispatchStream('/videos/a/premium/b.mp4');
  expect(res.status).toBe(200);
  const source = watched(res.body);
  const out = writer(options.delayMs);
  const result = await pumpBody(source, out, options.batchBytes ? { batchBytes: options.batchBytes } : {});
  return { result, source, out };
}

describe('the body pump over reused socket reads', () => {
  it('writes every byte of a body whose writer is slower than the socket (the pump pauses, chunks wait in its queue)', async () => {
    const body = pattern(6 * 1024 * 1024);
    const { result, out } = await pumpThrough(body, { chunked: false, delayMs: 2, batchBytes: 64 * 1024 });
    expect(result).toEqual({ received: body.length });
    expect(out.bytes().equals(body)).toBe(true);
  });

  it('writes every byte of a chunked body (chunks that end before the read did), with a slow writer', async () => {
    const body = pattern(4 * 1024 * 1024 + 123);
    const { result, out } = await pumpThrough(body, { chunked: true, delayMs: 1, batchBytes: 64 * 1024 });
    expect(result).toEqual({ received: body.length });
    expect(out.bytes().equals(body)).toBe(true);
  });

  it('cycles through a few read buffers when the writer keeps up, instead of one per read', async () => {
    const body = pattern(16 * 1024 * 1024);
    const { result, out, source } = await pumpThrough(body, { chunked: false, delayMs: 0 });
    expect(result.received).toBe(body.length);
    expect(out.bytes().equals(body)).toBe(true);
    expect(source.chunks).toBeGreaterThan(16);
    expect(source.memories.size).toBeLessThan(source.chunks / 4);
  });
});
