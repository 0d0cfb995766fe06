/** Writing to the output streams with backpressure. */
import type { Writable } from 'node:stream';

/** Writes, waiting for 'drain' when the stream's buffer is full, so streamed output stays flat in memory. */
export function write(stream: Writable, text: string): Promise<void> | void {
  if (stream.write(text)) return;
  return new Promise((resolve, reject) => {
    const onDrain = (): void => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (err: Error): void => {
      stream.off('drain', onDrain);
      reject(err);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}
