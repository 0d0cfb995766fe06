/**
 * The body pump on its own, with a scripted body source and writer: batching while a write is
 * under way, the pause/resume bound, what happens to bytes when the source fails, and the
 * refusals (first bytes, size cap, writer failure) waiting for the write under way.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type BodyConsumer, type BodySource, pumpBody, readableSource } from '../../src/media/download/body-pump.js';
import type { SinkWriter } from '../../src/media/download/sink.js';

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

/** A writer that records each batch and completes it only when the test says so. */
function manualWriter(): SinkWriter & { batches: Buffer[][]; complete(err?: Error): void; bytes(): Buffer } {
  const pending: Array<(err?: Error | null) => void> = [];
  const w = {
    batches: [] as Buffer[][],
    write(chunks: readonly Buffer[], done: (err?: Error | null) => void) {
      w.batches.push([...chunks]);
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
  it('writes the first chunk at once and gathers the ones that arrive meanwhile into the next write', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer);
    source.consumer.onData(chunk(10, 1));
    source.consumer.onData(chunk(10, 2));
    source.consumer.onData(chunk(0)); // an empty chunk is nothing to write
    source.consumer.onData(chunk(10, 3));
    expect(writer.batches.map((b) => b.length)).toEqual([1]);
    writer.complete();
    expect(writer.batches.map((b) => b.length)).toEqual([1, 2]);
    source.consumer.onEnd();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 30 });
    expect(writer.bytes().equals(Buffer.concat([chunk(10, 1), chunk(10, 2), chunk(10, 3)]))).toBe(true);
  });

  it('asks the source to pause past the high-water mark and resumes it once the writes catch up', async () => {
    const source = scripted();
    const writer = manualWriter();
    const done = pumpBody(source, writer, { highWaterMark: 100 });
    expect(source.consumer.onData(chunk(60))).toBe(true);
    expect(source.consumer.onData(chunk(60))).toBe(false); // 60 being written + 60 waiting ≥ 100
    expect(source.resumes).toBe(0);
    writer.complete();
    expect(source.resumes).toBe(1);
    source.consumer.onEnd();
    writer.complete();
    await expect(done).resolves.toEqual({ received: 120 });
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

  it('reads a Node Readable through readableSource, including one that ended before the pump started', async () => {
    const body = new PassThrough();
    body.end(Buffer.from('whole body'));
    await tick();
    const writer: SinkWriter & { got: Buffer[] } = {
      got: [],
      write(chunks, done) {
        this.got.push(...chunks);
        setImmediate(done, null);
      },
    };
    await expect(pumpBody(readableSource(body), writer)).resolves.toEqual({ received: 10 });
    expect(Buffer.concat(writer.got).toString()).toBe('whole body');
  });
});
