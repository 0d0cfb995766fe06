/**
 * The download meter on stderr: bytes of the expected total, percent, rate and ETA, overall and for the
 * files in flight, on one line redrawn a few times a second, fields dropped whole to fit the terminal.
 */
import type { Writable } from 'node:stream';
import { basename } from 'node:path';
import type { FileProgress, JobOutcome, ProgressSink } from '../media/bulk.js';
import type { MediaJob } from '../media/jobs.js';
import { ProgressTally } from '../media/progress-tally.js';
import { formatBytes } from '../util/format-bytes.js';
import { oneLine, plural } from '../util/text.js';
import { type Measure, loadMeasure } from './width.js';

export interface ProgressOptions {
  /** Width when the stream does not know its own. */
  columns?: number;
  /** Milliseconds between redraws; 0 redraws only on redraw() (tests). */
  intervalMs?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

const BAR_MIN = 10;
const BAR_MAX = 30;

/** A duration for an ETA: 45s, 3m05s, 2h10m. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (s < 100 * 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return '>99h';
}

interface Field {
  order: number;
  priority: number;
  text?: string;
  /** The bar takes the room the other fields leave. */
  bar?: number;
  items?: string[];
}

export class ProgressMeter extends ProgressTally {
  constructor(
    private readonly measure: Measure,
    now: () => number,
    /** A single file (`-o`): its label leads the line and there is no file count. */
    private readonly single?: string,
  ) {
    super(now);
  }

  /** The line for a terminal `width` wide (at most width - 1: no wrap at the margin). */
  line(width: number, t = this.now()): string {
    const room = Math.max(1, width - 1);
    const { done, total, estimated } = this.totals();
    const rate = this.rate(t);
    const tilde = estimated ? '~' : '';
    // Without a byte total, a bulk run's bar counts files; a single file's has none.
    const fraction =
      total !== undefined && total > 0 ? Math.min(1, done / total) : !this.single && this.totalFiles > 0 ? this.finishedFiles / this.totalFiles : undefined;
    const fields: Field[] = [];
    if (this.single) fields.push({ order: 0, priority: 6, text: this.single });
    if (fraction !== undefined) {
      fields.push({ order: 1, priority: 5, bar: fraction });
      fields.push({ order: 2, priority: 0, text: `${tilde}${Math.floor(fraction * 100)}%` });
    }
    if (!this.single) fields.push({ order: 3, priority: 1, text: `${this.finishedFiles}/${plural(this.totalFiles, 'file')}` });
    fields.push({ order: 4, priority: 2, text: total !== undefined ? `${formatBytes(done)}/${tilde}${formatBytes(total)}` : formatBytes(done) });
    if (rate !== undefined) fields.push({ order: 5, priority: 4, text: `${formatBytes(Math.round(rate))}/s` });
    if (rate !== undefined && rate > 0 && total !== undefined && total > done) {
      fields.push({ order: 6, priority: 3, text: `ETA ${tilde}${formatDuration((total - done) / rate)}` });
    }
    if (!this.single && this.inFlight.size > 0) {
      const items = [...this.inFlight.values()].map((f) =>
        f.expected !== undefined && f.expected > 0
          ? `${f.label} ${Math.min(100, Math.floor((f.done / f.expected) * 100))}%`
          : `${f.label} ${formatBytes(f.done)}`,
      );
      fields.push({ order: 7, priority: 7, items });
    }
    return this.fit(fields, room);
  }

  private fit(fields: Field[], room: number): string {
    const w = (s: string): number => this.measure.width(s);
    const kept: Field[] = [];
    let used = 0;
    for (const f of [...fields].sort((a, b) => a.priority - b.priority)) {
      const gap = kept.length > 0 ? 1 : 0;
      let text = f.text ?? '';
      for (const item of f.items ?? []) {
        const next = text === '' ? `· ${item}` : `${text}, ${item}`;
        if (used + gap + w(next) > room) break;
        text = next;
      }
      const cells = f.bar !== undefined ? BAR_MIN + 2 : w(text);
      if ((f.items && text === '') || used + gap + cells > room) continue;
      used += gap + cells;
      kept.push({ ...f, text });
    }
    const barField = kept.find((f) => f.bar !== undefined);
    const barCells = barField ? Math.min(BAR_MAX, BAR_MIN + (room - used)) : 0;
    return kept
      .sort((a, b) => a.order - b.order)
      .map((f) => {
        if (f.bar === undefined) return f.text!;
        const full = Math.round(f.bar * barCells);
        return `${'█'.repeat(full)}${'░'.repeat(barCells - full)}`;
      })
      .join(' ');
  }
}

/** The file on the line: `<id>/<file>`, clean and short. */
function labelOf(job: MediaJob): string {
  const id = oneLine(job.exerciseId);
  return `${id.length > 24 ? `${id.slice(0, 23)}…` : id}/${oneLine(basename(job.path)).slice(0, 32)}`;
}

/** Draws the line when it changed, every intervalMs; stop() removes it, so what follows starts on a clean line. */
function lineDrawer(stream: Writable, meter: ProgressMeter, options: ProgressOptions): { redraw(): void; stop(): void } {
  let last = '';
  const redraw = (): void => {
    const columns = (stream as { columns?: unknown }).columns;
    const line = meter.line(typeof columns === 'number' && columns > 0 ? columns : (options.columns ?? 80));
    if (line === last) return;
    last = line;
    stream.write(`\r${line}\u001b[K`);
  };
  const interval = options.intervalMs ?? 100;
  const timer = interval > 0 ? setInterval(redraw, interval).unref() : undefined; // unref: never what keeps the process alive
  return {
    redraw,
    stop() {
      clearInterval(timer);
      if (last !== '') stream.write('\r\u001b[K');
      last = '';
    },
  };
}

async function meterFor(options: ProgressOptions, single?: string): Promise<ProgressMeter> {
  return new ProgressMeter(await loadMeasure(), options.now ?? (() => performance.now()), single);
}

export type BulkProgress = ProgressSink & { redraw(): void };

/** The meter of a bulk run, as its ProgressSink. */
export async function createProgress(stream: Writable, options: ProgressOptions = {}): Promise<BulkProgress> {
  const meter = await meterFor(options);
  let drawer: ReturnType<typeof lineDrawer> | undefined;
  const redraw = (): void => drawer?.redraw();
  return {
    start(totalFiles) {
      meter.start(totalFiles);
      drawer = lineDrawer(stream, meter, options);
      redraw();
    },
    addFiles(count) {
      meter.addFiles(count);
    },
    fileStarted(job, expected, fromByte) {
      meter.fileStarted(job, labelOf(job), expected, fromByte);
    },
    fileBytes(job, n) {
      meter.fileBytes(job, labelOf(job), n);
    },
    fileDone(outcome: JobOutcome) {
      meter.fileDone(outcome.job, outcome.status);
      redraw(); // a finished file shows at once
    },
    stop() {
      drawer?.stop();
    },
    redraw,
  };
}

export type FileMeter = FileProgress & { redraw(): void; stop(): void };

/** The meter of one file (`-o file`), the downloader's FileProgress; stop() when done. */
export async function createFileMeter(stream: Writable, label: string, options: ProgressOptions = {}): Promise<FileMeter> {
  const name = oneLine(label);
  const meter = await meterFor(options, name);
  meter.start(1);
  return {
    started(expected, fromByte) {
      meter.fileStarted(name, name, expected, fromByte);
    },
    bytes(n) {
      meter.fileBytes(name, name, n);
    },
    ...lineDrawer(stream, meter, options),
  };
}
