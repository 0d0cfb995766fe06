/** Writing to the output streams with backpressure, and cleaning network text for a terminal. */
import type { Writable } from 'node:stream';
import { CONTROL_CHARS } from '../util/text.js';

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

const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f-\u009f]/g;

/** Removes control characters, keeping tabs and newlines. */
export function stripControl(text: string): string {
  return text.replace(CONTROL_CHARS, '');
}

/** One line of text: control characters and line breaks become spaces. */
export function oneLine(text: string): string {
  return text.replace(CONTROL_OR_NEWLINE, ' ');
}
