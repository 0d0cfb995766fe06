/**
 * A dispatched body (body-source.ts) as a Readable, for a consumer that pipes it into another
 * stream — the proxy hands upstream media to node:http responses and files. Backpressure is the
 * Readable's own: a chunk push() refuses pauses the source until _read() asks again.
 */
import { Readable } from 'node:stream';
import type { BodyControl } from './body-source.js';
import type { DispatchedBody } from './dispatch-body.js';

export function bodyReadable(body: DispatchedBody, mapError: (err: unknown) => Error): Readable {
  let control: BodyControl | undefined;
  let paused = false;
  const readable = new Readable({
    read() {
      if (paused) {
        paused = false;
        control?.resume();
      }
    },
    destroy(err, callback) {
      control?.destroy();
      callback(err);
    },
  });
  control = body.start({
    onData(chunk) {
      if (readable.push(chunk)) return true;
      paused = true;
      return false;
    },
    onEnd: () => readable.push(null),
    onError: (err) => readable.destroy(mapError(err)),
  });
  return readable;
}
