/** Writing to the output streams with backpressure, and cleaning network text for a terminal. */
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

/**
 * C0/C1 control characters (ESC among them): text from the network must never move the
 * cursor or recolour the terminal, and piped output never carries escape sequences.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f-\u009f]/g;

/** Removes control characters, keeping tabs and newlines. */
export function stripControl(text: string): string {
  return text.replace(CONTROL, '');
}

/** One line of text: control characters and line breaks become spaces. */
export function oneLine(text: string): string {
  return text.replace(CONTROL_OR_NEWLINE, ' ');
}
