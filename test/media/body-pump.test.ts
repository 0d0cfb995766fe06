/**
 * The body pump on its own, with a scripted body source and writer: batching into its two
 * reused buffers while a write is under way, the pause/resume bound, what happens to bytes when
 * the source fails, and the refusals (first bytes, size cap, writer failure) waiting for the
 * write under way.
 */
import { describe, expect, it } from 'vitest';
import { type BodyConsumer, type BodySource, pumpBody } from '../../src/media/download/body-pump.js';
import type { SinkWriter } from '../../src/media/download/types.js';

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

/**
 * A writer that records each batch (a copy: the pump reuses its buffers once a write is done)
 * and completes it only when the test says so. `given` keeps the buffers it was handed.
 */
function manualWriter(): SinkWriter & { batches: Buffer[][]; given: Buffer[]; complete(err?: Error): void; bytes(): Buffer } {
  const pending: Array<(err?: Error | null) => void> = [];
  const w = {
    batches: [] as Buffer[][],
    given: [] as Buffer[],
    write(chunk: Buffer, done: (err?: Error | null) => void) {
      w.batches.push([Buffer.from(chunk)]);
      w.given.push(chunk);
      pending.push(done);
    },
    complete(err?: Error) {
      pending.shift()!(err ?? null);
    },
    bytes: () => Buffer.concat(w.batches.flat()),
  };
  return w;
}

const tick = () => new Promise((r) => setImmediate(r));
const chunk = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('pumpBody', () => {
  it('writes the first chunk at once and gathers the ones that arrive meanwhile into the next write, as one buffer', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    source.consumer.onData(chunk(10, 1));
    source.consumer.onData(chunk(10, 2));
    source.consumer.onData(chunk(0)); // an empty chunk is nothing to write
    source.consumer.onData(chunk(10, 3));
    expect(writer.batches.map((b) => b.map((c) => c.length))).toEqual([[10]]);
    writer.complete();
    expect(writer.batches.map((b) => b.map((c) => c.length))).toEqual([[10], [20]]);
    source.consumer.onEnd();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 30 });
    expect(writer.bytes().equals(Buffer.concat([chunk(10, 1), chunk(10, 2), chunk(10, 3)]))).toBe(true);
  });

  it('pauses the source once both batch buffers are taken, keeps the bytes that did not fit in order, and resumes when a write is done', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer, { batchBytes: 100 });
    expect(source.consumer.onData(chunk(60, 1))).toBe(true); // written at once: the first buffer
    expect(source.consumer.onData(chunk(60, 2))).toBe(true); // the second buffer, 60 of 100
    expect(source.consumer.onData(chunk(60, 3))).toBe(false); // 40 fit, 20 wait: pause
    expect(source.consumer.onData(chunk(30, 4))).toBe(false); // a source may bring more after a pause: kept too
    expect(source.resumes).toBe(0);
    writer.complete();
    // The full buffer went out; what waited moved into the one just written.
    expect(writer.batches[1]!.map((c) => c.length)).toEqual([100]);
    expect(source.resumes).toBe(1);
    source.consumer.onEnd();
    writer.complete();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 210 });
    expect(writer.bytes().equals(Buffer.concat([chunk(60, 1), chunk(60, 2), chunk(60, 3), chunk(30, 4)]))).toBe(true);
    // Two buffers, each written more than once, never a third.
    expect(new Set(writer.given.map((b) => b.buffer)).size).toBe(2);
  });

  it('takes a chunk larger than both buffers whole, in order, across several writes', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer, { batchBytes: 16 });
    const big = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    expect(source.consumer.onData(big)).toBe(false);
    source.consumer.onEnd();
    while (writer.batches.length < 7) writer.complete();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 100 });
    expect(writer.bytes().equals(big)).toBe(true);
    expect(writer.batches.every((b) => b.length === 1 && b[0]!.length <= 16)).toBe(true);
  });

  it('reuses the buffers of a finished download for the next one', async () => {
    const first = manualWriter();
    const a = scripted();
    const one = pumpBody(a, first, { batchBytes: 64 });
    a.consumer.onData(chunk(10));
    a.consumer.onData(chunk(10)); // into the second buffer while the first is written
    a.consumer.onEnd();
    first.complete();
    first.complete();
    await one;
    const used = new Set(first.given.map((g) => g.buffer));
    expect(used.size).toBe(2);
    const second = manualWriter();
    const b = scripted();
    const two = pumpBody(b, second, { batchBytes: 64 });
    b.consumer.onData(chunk(10, 7));
    b.consumer.onEnd();
    second.complete();
    await expect(two).resolves.toEqual({ received: 10 });
    expect(used.has(second.given[0]!.buffer)).toBe(true);
    expect(second.bytes().equals(chunk(10, 7))).toBe(true);
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
    expect(writer.batches).toHaveLength(3);
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
    expect(writer.batches).toHaveLength(0);
    source.consumer.onData(Buffer.from('type html>'));
    await expect(done).rejects.toThrow('not media');
    expect(writer.batches).toHaveLength(0);
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
