/** The stream sink (stdout for `-o -`): written bytes cannot be taken back, so it continues only from exactly what it wrote; no lock. */
import type { Writable } from 'node:stream';
import { NetworkError } from '../../errors.js';
import { checkLength } from '../verify.js';
import type { Validator } from './range-resume.js';
import type { Sink, SinkWriter } from './types.js';

export function streamSink(out: Writable): Sink {
  let written = 0;
  let validator: Validator | undefined;

  const writer: SinkWriter = {
    write(chunks, done) {
      const unusable = out.errored ?? (out.destroyed || out.writableEnded ? new Error('the output was closed') : undefined);
      if (unusable) {
        process.nextTick(done, unusable);
        return;
      }
      let flowing = true;
      for (const chunk of chunks) {
        written += chunk.length;
        flowing = out.write(chunk);
      }
      if (flowing) {
        process.nextTick(done, null);
        return;
      }
      // Wait for the reader (a pipe) to catch up; a closed output ends the wait too.
      const onDrain = (): void => {
        out.off('close', onClose);
        done(null);
      };
      const onClose = (): void => {
        out.off('drain', onDrain);
        done(out.errored ?? new Error('the output was closed'));
      };
      out.once('drain', onDrain);
      out.once('close', onClose);
    },
  };

  return {
    async claim() {
      return { completedMeanwhile: false };
    },
    async release() {},
    async resumeState() {
      return { offset: written, ...(validator ? { validator } : {}) };
    },
    async remember(_url, v) {
      validator = v;
    },
    async open(offset) {
      if (offset !== written) {
        throw new NetworkError('The download was interrupted after part of it had been written to stdout, and the server cannot continue it.', {
          hint: 'Run it again, or save to a file with -o <file>, which can be resumed.',
        });
      }
      return writer;
    },
    size() {
      return written;
    },
    async finish(_kind, total, what) {
      checkLength(total, written, what);
      return written;
    },
    async discard() {
      // Written bytes cannot be withdrawn; the exit status says the output is bad.
    },
  };
}
