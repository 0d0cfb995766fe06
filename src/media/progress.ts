/**
 * The progress bar of bulk downloads (cli-progress, loaded only when shown): files done of
 * total, bytes, rate and ETA, on stderr — only when stderr is a terminal and not --quiet.
 */
import type { Writable } from 'node:stream';
import { formatBytes, type JobOutcome, type ProgressSink } from './bulk.js';

export async function createProgress(stream: Writable): Promise<ProgressSink> {
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WriteStream,
      format: '{bar} {value}/{total} files | {bytes} | {rate}/s | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let bytes = 0;
  const payload = (): { bytes: string; rate: string } => {
    const seconds = (performance.now() - started) / 1000;
    return { bytes: formatBytes(bytes), rate: formatBytes(seconds > 0 ? Math.round(bytes / seconds) : 0) };
  };
  return {
    start(total) {
      bar.start(total, 0, payload());
    },
    bytes(n) {
      bytes += n;
      bar.update(payload());
    },
    done(_outcome: JobOutcome) {
      bar.increment(1, payload());
    },
    stop() {
      bar.stop();
    },
  };
}
