/**
 * The stream sink (`-o -`) and the pump's reused buffers: what a stream holds after a write is
 * done must be its own copy, not the buffer the pump fills next.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamSink } from '../../src/media/download/stream-sink.js';

describe('streamSink', () => {
  it('hands the stream a copy of each chunk: bytes still queued in it survive the reuse of the buffer', async () => {
    const out = new PassThrough(); // nothing reads it yet: the chunk stays queued, by reference if not copied
    const writer = await streamSink(out).open(0);
    const buffer = Buffer.from('first bytes');
    await new Promise<void>((resolve, reject) => writer.write(buffer, (err) => (err ? reject(err) : resolve())));
    buffer.fill(0); // the pump fills the same buffer with the next bytes
    out.end();
    const chunks: Buffer[] = [];
    for await (const chunk of out) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('first bytes');
  });
});
