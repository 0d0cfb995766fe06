/** The counts behind the download meter: files started and done, bytes, the recent rate and the expected total. */
import type { JobOutcome } from './bulk.js';
import type { MediaJob } from './jobs.js';

/** Seconds the rate is taken over: recent enough to follow a change of speed. */
const RATE_WINDOW_S = 5;

export interface FileTally {
  label: string;
  expected?: number;
  done: number;
}

/** Done and expected bytes; `estimated` when files of unknown size were counted at the average. */
export interface Totals {
  done: number;
  total?: number;
  estimated: boolean;
}

export class ProgressTally {
  protected totalFiles = 0;
  protected finishedFiles = 0;
  protected readonly inFlight = new Map<MediaJob | string, FileTally>();
  /** Bytes and expected sizes of fetched files, and of in-flight files whose size is known. */
  private doneFinished = 0;
  private sizeFinished = 0;
  private sizedFinishedFiles = 0;
  private received = 0;
  /** [time, bytes so far], oldest first. */
  private readonly samples: Array<[number, number]>;

  constructor(protected readonly now: () => number) {
    this.samples = [[now(), 0]];
  }

  start(totalFiles: number): void {
    this.totalFiles = totalFiles;
  }

  addFiles(count: number): void {
    this.totalFiles += count;
  }

  fileStarted(key: MediaJob | string, label: string, expected: number | undefined, fromByte: number): void {
    const file = this.inFlight.get(key) ?? { label, done: 0 };
    file.expected = expected;
    file.done = fromByte; // a restart takes the count back; a resume starts where the disk is
    this.inFlight.set(key, file);
  }

  fileBytes(key: MediaJob | string, label: string, n: number): void {
    let file = this.inFlight.get(key);
    if (!file) this.inFlight.set(key, (file = { label, done: 0 }));
    file.done += n;
    this.received += n;
  }

  fileDone(key: MediaJob | string, status: JobOutcome['status']): void {
    const file = this.inFlight.get(key);
    this.inFlight.delete(key);
    this.finishedFiles++;
    if (status === 'fetched' && file) {
      this.doneFinished += file.done;
      this.sizeFinished += file.expected ?? file.done;
      this.sizedFinishedFiles++;
    }
  }

  /** Bytes per second over the last few seconds, once there is half a second of it. */
  protected rate(t: number): number | undefined {
    this.samples.push([t, this.received]);
    while (this.samples.length > 2 && t - this.samples[1]![0] >= RATE_WINDOW_S * 1000) this.samples.shift();
    const [t0, r0] = this.samples[0]!;
    const seconds = (t - t0) / 1000;
    return seconds >= 0.5 ? (this.received - r0) / seconds : undefined;
  }

  /** Done and expected bytes; files of unknown size are counted at the average, the total then an estimate (`~`). */
  protected totals(): Totals {
    let done = this.doneFinished;
    let total = this.sizeFinished;
    let sized = this.sizedFinishedFiles;
    let unsized = 0;
    for (const f of this.inFlight.values()) {
      done += f.done;
      if (f.expected !== undefined) {
        total += Math.max(f.expected, f.done);
        sized++;
      } else unsized++;
    }
    const notStarted = Math.max(0, this.totalFiles - this.finishedFiles - this.inFlight.size);
    const unknown = unsized + notStarted;
    if (unknown === 0) return { done, total: sized > 0 ? total : undefined, estimated: false };
    if (sized === 0) return { done, estimated: true };
    return { done, total: total + (total / sized) * unknown, estimated: true };
  }
}
