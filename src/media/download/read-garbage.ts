/**
 * Frees the socket's reads soon after a download has copied them (body-pump.ts), so they do not
 * pile up in resident memory. undici reads its socket with `socket.read()`: each read is a
 * fresh buffer outside V8's heap, dead as soon as its bytes are copied. Such buffers are freed
 * only when V8 collects their small JS handles, and a download allocates so few JS objects
 * that V8 collects on its own only under external-memory pressure — about every 32 MB read,
 * which was a third of the CLI's peak RSS. So every READ_GARBAGE_BYTES read, a minor
 * collection (a scavenge of the young generation) is run: with the reads copied, the young
 * generation holds almost nothing alive, so it takes a fraction of a millisecond.
 *
 * V8 offers its collector to JavaScript only as the `gc` function of its `--expose-gc` flag.
 * The flag is set for the moment a new context is made (the function is bound in every
 * context created while it is on, `vm.runInNewContext` making one), then unset again, so the
 * process's other flags, and the code caches made under them, are as before. This is what
 * Jest's `--logHeapUsage` does. A Node where that fails (a flag refused) downloads as before.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes read between two minor collections: garbage reads held at most, about. */
export const READ_GARBAGE_BYTES = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor' | 'major' }) => void;

let collect: Collect | null | undefined;
let sinceLast = 0;

/** V8's `gc`, undefined where it cannot be had. */
function exposeCollector(): Collect | undefined {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Collect; // node --expose-gc
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collect) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Counts `bytes` read from a download's socket, collecting the young generation every READ_GARBAGE_BYTES. */
export function noteRead(bytes: number): void {
  sinceLast += bytes;
  if (sinceLast < READ_GARBAGE_BYTES) return;
  sinceLast = 0;
  if (collect === undefined) collect = exposeCollector() ?? null;
  collect?.({ type: 'minor' });
}
