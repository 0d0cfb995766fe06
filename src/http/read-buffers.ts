/**
 * Socket reads into buffers used again. Left to itself, a socket reads each time into a fresh
 * 64 KiB buffer outside V8's heap, freed only once V8 collects its handle; a download makes
 * ~16,000 of them per GB, and V8 13 (Node 24) lets ~65 MB of them pile up before it collects,
 * where Node 20 collected at ~33 MB. Given to the Agent's connector (Node's `onread` socket
 * option), this module hands each read a buffer from a small free list instead, and a buffer
 * goes back to the list once the body's consumer says it copied the bytes and kept no view of
 * them (readSpent, from the body pump): a download then cycles through a few buffers.
 *
 * A buffer is read into again only when nothing can still read it:
 * - 'reading': lent to a socket for its next read; a read into a buffer in any other state
 *   fails the socket instead of delivering anything (a Node that stopped asking for a buffer
 *   per read would otherwise overwrite bytes not consumed yet).
 * - 'queued': its bytes were pushed to the socket's readable side as a view; undici parses them
 *   and hands body views of them to the consumer. Only readSpent frees it, so a consumer that
 *   keeps chunks (a JSON body collected, an error body quoted) simply never frees it: the buffer
 *   is then left to the collector, as every read was before.
 * - 'free': in the list (or dropped when the list is full), for the next read of any socket.
 *
 * Reads under 4 KiB are copied instead, and their buffer goes straight back to the socket.
 */
import type { Socket } from 'node:net';

/** Each read buffer's size: the 64 KiB libuv suggests and Node reads into by default. */
export const READ_BYTES = 64 * 1024;

/**
 * Reads shorter than this are copied (Node's shared pool serves such small copies) and the
 * buffer goes straight back to the socket: a JSON answer of a few KiB, read piecemeal, does not
 * hold a 64 KiB buffer per read until it is parsed. Not Buffer.poolSize / 2: that is 32 KiB on
 * Node 24, where it would copy every 16 KiB TLS record.
 */
const COPY_BELOW = 4 * 1024;

/** Buffers kept free at most: two per download at the default concurrency of four, and spares. */
const KEEP = 16;

type State = 'reading' | 'queued' | 'free';

interface ReadBuffer {
  readonly buffer: Buffer;
  state: State;
  /** Where the last read into it ended (its bytes are 0 to end). */
  end: number;
}

/** Our buffers, by the memory their chunks are views of (a chunk's `.buffer`). */
const byMemory = new WeakMap<ArrayBufferLike, ReadBuffer>();
const free: ReadBuffer[] = [];
/** The buffer of a read just copied: still the socket's, handed back by the next lend(). */
let again: ReadBuffer | undefined;

/** The buffer for a socket's next read: Node calls it when the socket starts and after every read. */
function lend(): Buffer {
  let entry = again;
  again = undefined;
  entry ??= free.pop();
  if (!entry) {
    // Not from Node's shared pool: a buffer of its own, whole, so its memory identifies it.
    entry = { buffer: Buffer.allocUnsafeSlow(READ_BYTES), state: 'reading', end: 0 };
    byMemory.set(entry.buffer.buffer, entry);
  }
  entry.state = 'reading';
  return entry.buffer;
}

/** Node calls it with `this` the socket once `n` bytes are in `buffer`; false stops reading until undici reads. */
function onRead(this: Socket, n: number, buffer: Buffer): boolean {
  const entry = byMemory.get(buffer.buffer);
  if (entry?.state !== 'reading') {
    this.destroy(new Error('A socket read into a buffer still in use; the connection was dropped.'));
    return false;
  }
  if (n < COPY_BELOW) {
    again = entry;
    return this.push(Buffer.from(buffer.subarray(0, n)));
  }
  entry.state = 'queued';
  entry.end = n;
  return this.push(buffer.subarray(0, n));
}

/** The `onread` option for the sockets of an undici Agent (its `connect` options pass it to net/tls.connect). */
export function reusedReads(): { buffer: () => Buffer; callback: (this: Socket, n: number, buffer: Buffer) => boolean } {
  return { buffer: lend, callback: onRead };
}

/**
 * The consumer holds no view of `chunk` any more (it copied the bytes): the read buffer behind
 * it may be read into again, if it is one of ours and `chunk` ends where the read into it
 * ended. So every byte of that read has been handed over, and undici has none of it left to
 * hand over later (after a pause it puts back the bytes it has not parsed, a view of this same
 * buffer). A chunk that ends earlier (a chunked body's framing follows it) frees nothing: the
 * buffer is then left to the collector. Zero-length views free nothing either.
 */
export function readSpent(chunk: Buffer): void {
  if (chunk.length === 0) return;
  const entry = byMemory.get(chunk.buffer);
  if (entry?.state !== 'queued' || chunk.byteOffset + chunk.length !== entry.end) return;
  entry.state = 'free';
  if (free.length < KEEP) free.push(entry);
}
