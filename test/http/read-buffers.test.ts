/**
 * Socket reads into reused buffers (src/http/read-buffers.ts), on plain sockets to a loopback
 * server: every byte arrives in order whatever the consumer does; a buffer is read into again
 * only after the consumer said it holds no view of it (and only when that view ended where the
 * read ended); small reads are copies; a read into a buffer still in use drops the connection.
 */
import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { READ_BYTES, readSpent, reusedReads } from '../../src/http/read-buffers.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** Bytes distinct at every offset, so a byte overwritten or out of place shows. */
function pattern(size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 7 + (i >> 8) + (i >> 16)) & 0xff;
  return body;
}

/** A server that writes `pieces` (waiting `gapMs` between them) to each connection, then ends it. */
async function sender(pieces: Buffer[], gapMs = 0): Promise<number> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    let i = 0;
    const next = (): void => {
      if (i === pieces.length) {
        socket.end();
        return;
      }
      const ok = socket.write(pieces[i++]!);
      if (gapMs > 0) setTimeout(next, gapMs);
      else if (ok) setImmediate(next);
      else socket.once('drain', next);
    };
    next();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Reads a socket made with reusedReads() as undici does ('readable', then read() until null), handing each chunk to `consume`. */
function readAll(port: number, consume: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: '127.0.0.1', port, onread: reusedReads() });
    socket.on('readable', () => {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) consume(chunk);
    });
    socket.on('end', resolve);
    socket.on('error', reject);
  });
}

describe('reused socket reads', () => {
  it('reads into a few buffers over and over when the consumer copies each chunk and says so, every byte in order', async () => {
    const body = pattern(8 * 1024 * 1024);
    const port = await sender([body]);
    const copies: Buffer[] = [];
    const memories = new Set<ArrayBufferLike>();
    let chunks = 0;
    await readAll(port, (chunk) => {
      chunks++;
      memories.add(chunk.buffer);
      copies.push(Buffer.from(chunk));
      readSpent(chunk);
    });
    expect(Buffer.concat(copies).equals(body)).toBe(true);
    expect(chunks).toBeGreaterThan((8 * 1024 * 1024) / READ_BYTES / 2);
    // Without reuse every read has memory of its own (one per chunk).
    expect(memories.size).toBeLessThan(chunks / 4);
  });

  it('never reads into a buffer whose chunk the consumer keeps: the kept views still hold their bytes at the end', async () => {
    const body = pattern(4 * 1024 * 1024);
    const port = await sender([body]);
    const views: Buffer[] = [];
    await readAll(port, (chunk) => views.push(chunk));
    expect(Buffer.concat(views).equals(body)).toBe(true);
    expect(new Set(views.map((v) => v.buffer)).size).toBe(views.length);
  });

  it('does not read into a buffer again when the chunk let go of ends before the read did (its tail is still to be handed over)', async () => {
    const body = pattern(2 * 1024 * 1024);
    const port = await sender([body]);
    const copies: Buffer[] = [];
    const heads: Buffer[] = [];
    await readAll(port, (chunk) => {
      copies.push(Buffer.from(chunk));
      // Only the first half is "spent"; the second half stays a live view.
      const head = chunk.subarray(0, chunk.length >> 1);
      heads.push(chunk.subarray(chunk.length >> 1));
      readSpent(head);
    });
    expect(Buffer.concat(copies).equals(body)).toBe(true);
    const tails = Buffer.concat(heads);
    const expected = Buffer.concat(copies.map((c) => c.subarray(c.length >> 1)));
    expect(tails.equals(expected)).toBe(true);
  });

  it('hands small reads over as copies, so a consumer that keeps them does not keep a read buffer per read', async () => {
    const pieces = Array.from({ length: 20 }, (_, i) => pattern(100 + i));
    const port = await sender(pieces, 5);
    const kept: Buffer[] = [];
    await readAll(port, (chunk) => kept.push(chunk));
    expect(Buffer.concat(kept).equals(Buffer.concat(pieces))).toBe(true);
    expect(kept.length).toBeGreaterThan(5);
    // Views of the read buffers would each have memory of their own (none is read into again while kept).
    expect(new Set(kept.map((c) => c.buffer)).size).toBeLessThanOrEqual(kept.length / 2);
  });

  it('drops the connection rather than deliver a read into a buffer that was not lent for it', () => {
    const { callback } = reusedReads();
    let destroyedWith: unknown;
    const pushed: Buffer[] = [];
    const socket = {
      destroy: (err: unknown) => void (destroyedWith = err),
      push: (b: Buffer) => pushed.push(b),
    } as unknown as Socket;
    expect(callback.call(socket, 10, Buffer.alloc(READ_BYTES))).toBe(false);
    expect(destroyedWith).toBeInstanceOf(Error);
    expect(pushed).toHaveLength(0);
  });
});
