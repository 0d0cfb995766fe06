/**
 * The download meter on stderr (the caller decides when: a terminal, not --quiet): bytes of the
 * expected total, percent, rate and ETA, overall and for the files in flight, on one line
 * redrawn a few times a second and fitted to the terminal — fields dropped whole by priority,
 * never cut mid-number. For a bulk run and for one file (`-o file`); the counts are
 * src/media/progress-tally.ts's.
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
  /** Width when the stream does not know its own (not a terminal stream, e.g. in a test). */
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

/** One field of the line: kept by `priority` (lower first), shown in `order`. */
interface Field {
  order: number;
  priority: number;
  text?: string;
  /** The bar: it takes the room the other fields leave, between BAR_MIN and BAR_MAX. */
  bar?: number;
  /** In-flight files: as many of them as fit. */
  items?: string[];
}

/** A run's tally and its one-line rendering; the sink and the single-file meter drive it. */
export class ProgressMeter extends ProgressTally {
  constructor(
    private readonly measure: Measure,
    now: () => number,
    /** A single file (`-o`): its label leads the line and there is no file count. */
    private readonly single?: string,
  ) {
    super(now);
  }

  /** The line for a terminal `width` columns wide (at most width - 1 used: no wrap at the margin). */
  line(width: number, t = this.now()): string {
    const room = Math.max(1, width - 1);
    const { done, total, estimated } = this.totals();
    const rate = this.rate(t);
    const tilde = estimated ? '~' : '';
    const fraction =
      total !== undefined && total > 0
        ? Math.min(1, done / total)
        : this.single
          ? undefined
          : this.totalFiles > 0
            ? this.finishedFiles / this.totalFiles
            : undefined;
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

  /** Keeps fields by priority while they fit, then lays them out in order. */
  private fit(fields: Field[], room: number): string {
    const w = (s: string): number => this.measure.width(s);
    const kept: Field[] = [];
    let used = 0;
    for (const f of [...fields].sort((a, b) => a.priority - b.priority)) {
      const gap = kept.length > 0 ? 1 : 0;
      if (f.bar !== undefined) {
        if (used + gap + BAR_MIN + 2 > room) continue;
        used += gap + BAR_MIN + 2;
        kept.push(f);
      } else if (f.items) {
        const prefix = '· ';
        let text = '';
        for (const item of f.items) {
          const next = text === '' ? prefix + item : `${text}, ${item}`;
          if (used + gap + w(next) > room) break;
          text = next;
        }
        if (text === '') continue;
        used += gap + w(text);
        kept.push({ ...f, text });
      } else {
        const text = f.text!;
        if (used + gap + w(text) > room) continue;
        used += gap + w(text);
        kept.push(f);
      }
    }
    // The bar takes what the others leave, up to BAR_MAX.
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

/** The file on the line: `<id>/<file>` (several exercises download at once), clean and short. */
function labelOf(job: MediaJob): string {
  const id = oneLine(job.exerciseId);
  return `${id.length > 24 ? `${id.slice(0, 23)}…` : id}/${oneLine(basename(job.path)).slice(0, 32)}`;
}

/** Redraws the meter's line on `stream` (`\r`, the line, erase to its end) when it changed. */
class LineDrawer {
  private last = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: Writable,
    private readonly render: (width: number) => string,
    private readonly options: ProgressOptions,
  ) {
    const interval = options.intervalMs ?? 100;
    if (interval > 0) {
      this.timer = setInterval(() => this.redraw(), interval);
      this.timer.unref(); // never what keeps the process alive
    }
  }

  private width(): number {
    const columns = (this.stream as { columns?: unknown }).columns;
    return typeof columns === 'number' && columns > 0 ? columns : (this.options.columns ?? 80);
  }

  redraw(): void {
    const line = this.render(this.width());
    if (line === this.last) return;
    this.last = line;
    this.stream.write(`\r${line}\u001b[K`);
  }

  /** Removes the line: what follows (the summary, an error) starts on a clean line. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.last !== '') this.stream.write('\r\u001b[K');
    this.last = '';
  }
}

export type BulkProgress = ProgressSink & { redraw(): void };

/** The meter of a bulk run, as the ProgressSink of runBulk. */
export async function createProgress(stream: Writable, options: ProgressOptions = {}): Promise<BulkProgress> {
  const measure = await loadMeasure();
  const now = options.now ?? (() => performance.now());
  const meter = new ProgressMeter(measure, now);
  let drawer: LineDrawer | undefined;
  const redraw = (): void => drawer?.redraw();
  return {
    start(totalFiles) {
      meter.start(totalFiles);
      drawer = new LineDrawer(stream, (w) => meter.line(w), options);
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

/**
 * The meter of one file (`image`/`video -o file`): its name, bar, percent, bytes, rate and
 * ETA. Hand it to the downloader as its FileProgress; stop() when the download is over.
 */
export async function createFileMeter(stream: Writable, label: string, options: ProgressOptions = {}): Promise<FileMeter> {
  const measure = await loadMeasure();
  const now = options.now ?? (() => performance.now());
  const name = oneLine(label);
  const meter = new ProgressMeter(measure, now, name);
  meter.start(1);
  const drawer = new LineDrawer(stream, (w) => meter.line(w), options);
  return {
    started(expected, fromByte) {
      meter.fileStarted(name, name, expected, fromByte);
    },
    bytes(n) {
      meter.fileBytes(name, name, n);
    },
    redraw: () => drawer.redraw(),
    stop: () => drawer.stop(),
  };
}
