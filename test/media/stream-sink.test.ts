/**
 * The stream sink (`-o -`): its writes wait for a reader that is behind, a closed output fails
 * the write under way, and a download continues only from exactly what was written.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamSink } from '../../src/media/download/stream-sink.js';
import type { SinkWriter } from '../../src/media/download/types.js';

function write(writer: SinkWriter, ...chunks: Buffer[]): Promise<void> {
  return new Promise((resolve, reject) => writer.write(chunks, (err) => (err ? reject(err) : resolve())));
}

describe('streamSink', () => {
  it('completes a write the stream cannot take yet only once the reader has caught up', async () => {
    const out = new PassThrough({ highWaterMark: 4 });
    const writer = await streamSink(out).open(0);
    let done = false;
    const written = write(writer, Buffer.from('first bytes')).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    await written;
    await write(writer, Buffer.from(', then'), Buffer.from(' more'));
    expect(Buffer.concat(chunks).toString()).toBe('first bytes, then more');
  });

  it('fails the write under way when the output closes, and every write after it', async () => {
    const out = new PassThrough({ highWaterMark: 4 });
    out.on('error', () => {}); // the run's stdout has its own handler; the sink hears of it through `errored`
    const writer = await streamSink(out).open(0);
    const written = write(writer, Buffer.from('first bytes'));
    out.destroy(new Error('EPIPE'));
    await expect(written).rejects.toThrow('EPIPE');
    await expect(write(writer, Buffer.from('more'))).rejects.toThrow('EPIPE');
  });

  it('continues only from the bytes it has written, never starts over', async () => {
    const sink = streamSink(new PassThrough());
    const writer = await sink.open(0);
    await write(writer, Buffer.from('12345'));
    expect(sink.size()).toBe(5);
    await expect(sink.resumeState(new URL('http://127.0.0.1/v.mp4'))).resolves.toEqual({ offset: 5 });
    await expect(sink.open(5)).resolves.toBe(writer);
    await expect(sink.open(0)).rejects.toThrow(/written to stdout/);
  });
});
