/**
 * The body pump: with a scripted body source and writer, the order of the bytes, a write taking
 * every chunk that arrived during the one before, the pause/resume
 * bound, what happens to bytes when the source fails, and the refusals (first bytes, size cap,
 * writer failure) waiting for the write under way; over the transport's real sockets, every
 * byte of a body arriving faster than a slow writer takes it.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyConsumer, type BodySource, pumpBody } from '../../src/media/download/body-pump.js';
import type { SinkWriter } from '../../src/media/download/types.js';
import { closeAll, serve, transport } from '../http/local-server.js';

afterEach(closeAll);

/** A source the test drives by hand. */
function scripted(): BodySource & { consumer: BodyConsumer; resumes: number; destroyed: boolean } {
  const s = {
    consumer: undefined as unknown as BodyConsumer,
    resumes: 0,
    destroyed: false,
    start(consumer: BodyConsumer) {
      s.consumer = consumer;
      return {
        resume: () => void s.resumes++,
        destroy: () => void (s.destroyed = true),
      };
    },
  };
  return s;
}

/** A writer that records each write (its chunks joined) and completes it only when the test says so. */
function manualWriter(): SinkWriter & { writes: Buffer[]; complete(err?: Error): void; bytes(): Buffer } {
  const pending: Array<(err?: Error | null) => void> = [];
  const w = {
    writes: [] as Buffer[],
    write(chunks: readonly Buffer[], done: (err?: Error | null) => void) {
      w.writes.push(Buffer.concat(chunks));
      pending.push(done);
    },
    complete(err?: Error) {
      pending.shift()!(err ?? null);
    },
    bytes: () => Buffer.concat(w.writes),
  };
  return w;
}

const tick = () => new Promise((r) => setImmediate(r));
const chunk = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('pumpBody', () => {
  it('writes the first chunk at once, and the ones that arrive meanwhile in the next write, after it is done', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    source.consumer.onData(chunk(10, 1));
    source.consumer.onData(chunk(10, 2));
    source.consumer.onData(chunk(0)); // an empty chunk is nothing to write
    source.consumer.onData(chunk(10, 3));
    expect(writer.writes.map((w) => w.length)).toEqual([10]);
    writer.complete();
    expect(writer.writes.map((w) => w.length)).toEqual([10, 20]);
    source.consumer.onEnd();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 30 });
    expect(writer.bytes().equals(Buffer.concat([chunk(10, 1), chunk(10, 2), chunk(10, 3)]))).toBe(true);
  });

  it('pauses the source once half a MiB waits to be written, keeps what arrives after the pause in order, and resumes when the writer catches up', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    const piece = 64 * 1024;
    expect(source.consumer.onData(chunk(piece, 0))).toBe(true); // written at once
    for (let i = 1; i < 8; i++) expect(source.consumer.onData(chunk(piece, i))).toBe(true); // 7 pieces wait
    expect(source.consumer.onData(chunk(piece, 8))).toBe(false); // 8 pieces, 512 KiB, wait: pause
    expect(source.consumer.onData(chunk(10, 9))).toBe(false); // a source may bring more after a pause: kept too
    expect(source.resumes).toBe(0);
    writer.complete(); // the next write takes all that waited
    expect(writer.writes.map((w) => w.length)).toEqual([piece, 8 * piece + 10]);
    expect(source.resumes).toBe(1);
    source.consumer.onEnd();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 9 * piece + 10 });
    expect(writer.bytes().equals(Buffer.concat([...Array.from({ length: 9 }, (_, i) => chunk(piece, i)), chunk(10, 9)]))).toBe(true);
    expect(source.resumes).toBe(1);
  });

  it('pauses the source once 1,024 chunks wait, however small', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    expect(source.consumer.onData(chunk(1, 0))).toBe(true); // written at once
    for (let i = 1; i < 1024; i++) expect(source.consumer.onData(chunk(1, i & 0xff))).toBe(true);
    expect(source.consumer.onData(chunk(1, 0))).toBe(false);
    writer.complete();
    expect(source.resumes).toBe(1);
    source.consumer.onEnd();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 1025 });
    expect(writer.writes.map((w) => w.length)).toEqual([1, 1024]);
  });

  it('on a source failure still writes every byte that arrived, and returns the failure', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    source.consumer.onData(chunk(10));
    source.consumer.onData(chunk(20));
    const drop = new Error('socket hang up');
    source.consumer.onError(drop);
    writer.complete();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 30, sourceError: drop });
    expect(writer.bytes()).toHaveLength(30);
  });

  it('writes the chunk during which the body was cancelled (an abort from onChunk ends the source inside onData)', async () => {
    const source = scripted();
    const writer = manualWriter();
    const drop = new Error('aborted');
    let seen = 0;
    const done = pumpBody(source, writer, {
      onChunk: (n) => {
        seen += n;
        if (seen >= 30) source.consumer.onError(drop);
      },
    });
    source.consumer.onData(chunk(10, 1));
    writer.complete();
    source.consumer.onData(chunk(10, 2));
    writer.complete();
    // Nothing is being written and nothing gathered when the abort ends the body: the chunk
    // under way must not be lost to a pump that settled before taking it.
    expect(source.consumer.onData(chunk(10, 3))).toBe(true);
    expect(writer.writes).toHaveLength(3);
    writer.complete();
    await expect(done).resolves.toEqual({ received: 30, sourceError: drop });
    expect(writer.bytes().equals(Buffer.concat([chunk(10, 1), chunk(10, 2), chunk(10, 3)]))).toBe(true);
  });

  it('holds the first bytes until checkHead has judged them; refused, nothing is written and the source is stopped', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer, {
      checkHead: (first) => {
        if (first.toString('latin1').startsWith('<')) throw new Error('not media');
      },
    });
    source.consumer.onData(Buffer.from('<!doc'));
    expect(writer.writes).toHaveLength(0);
    source.consumer.onData(Buffer.from('type html>'));
    await expect(done).rejects.toThrow('not media');
    expect(writer.writes).toHaveLength(0);
    expect(source.destroyed).toBe(true);
  });

  it('stops at maxBytes with tooLarge(), but only after the write under way has finished', async () => {
    const source = scripted();
    const writer = manualWriter();
    let settled = false;
    const done = pumpBody(source, writer, { maxBytes: 15, tooLarge: () => new Error('too large') }).finally(() => (settled = true));
    source.consumer.onData(chunk(10));
    expect(source.consumer.onData(chunk(10))).toBe(false);
    expect(source.destroyed).toBe(true);
    await tick();
    expect(settled).toBe(false); // the file is still being written: the sink must not close it yet
    writer.complete();
    await expect(done).rejects.toThrow('too large');
  });

  it("rejects with the writer's error", async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    source.consumer.onData(chunk(10));
    writer.complete(new Error('ENOSPC'));
    await expect(done).rejects.toThrow('ENOSPC');
    expect(source.destroyed).toBe(true);
  });
});

/** Bytes distinct at every offset, so a byte overwritten or out of place shows. */
function pattern(size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 7 + (i >> 8) + (i >> 16)) & 0xff;
  return body;
}

/** A writer that keeps a copy of each write and completes it after `delayMs`. */
function slowWriter(delayMs: number): SinkWriter & { bytes(): Buffer } {
  const writes: Buffer[] = [];
  return {
    write(chunks: readonly Buffer[], done: (err: Error | null) => void) {
      writes.push(Buffer.concat(chunks));
      setTimeout(() => done(null), delayMs);
    },
    bytes: () => Buffer.concat(writes),
  };
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
    if (res.write(body.subarray(at, (at += piece)))) setImmediate(next);
    else res.once('drain', next);
  };
  next();
}

describe('pumpBody over the transport', () => {
  it.each([
    ['with its length', false, 6 * 1024 * 1024],
    ['chunked', true, 4 * 1024 * 1024 + 123],
  ])('writes every byte of a body sent %s, in order, to a writer slower than the socket', async (_name, chunked, size) => {
    const body = pattern(size);
    const { url } = await serve((_req, res) => sendBody(res, body, chunked));
    const res = await transport({ baseUrl: url }).dispatchStream('/videos/a/premium/b.mp4');
    expect(res.status).toBe(200);
    const out = slowWriter(1);
    await expect(pumpBody(res.body, out)).resolves.toEqual({ received: body.length });
    expect(out.bytes().equals(body)).toBe(true);
  });
});
