/** The download meter: bytes from Content-Length, fitted to the width without cutting a number; summaries. */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { InterruptedError, NetworkError, NotFoundError, PartialFailureError } from '../../src/errors.js';
import { type BulkSummary, type JobOutcome, runBulk } from '../../src/media/bulk.js';
import { partialFailure, summaryLines } from '../../src/media/bulk-summary.js';
import { formatBytes } from '../../src/util/format-bytes.js';
import type { MediaJob } from '../../src/media/jobs.js';
import { ProgressMeter, createFileMeter, createProgress, formatDuration } from '../../src/output/progress-meter.js';
import { loadMeasure } from '../../src/output/width.js';
import { MemoryOutput } from '../helpers/test-context.js';

function job(name: string, ext = 'mp4'): MediaJob {
  return {
    exerciseId: 'X',
    kind: ext === 'mp4' ? 'video' : 'image',
    name,
    url: new URL(`http://127.0.0.1:9/videos/X/premium/${name}.${ext}`),
    dir: '/nonexistent',
    path: `/nonexistent/X/${name}.${ext}`,
    what: `video "${name}" of exercise X`,
  };
}

/** The fields of a full-width bulk line, with the bar's length left out. */
const FULL_LINE = /^(?:[█░]+ )?(~?\d+%) (\d+\/\d+ files?) (\S+ \S+\/~?\S+ \S+) (\S+ \S+\/s) (ETA \S+)(?: (· .*))?$/;

/**
 * True when `narrow` is whole fields of `full`, in order: no number or unit cut. The list of
 * files in flight may end early, at a file boundary; the bar may be shorter.
 */
function isWholeFields(narrow: string, full: string): boolean {
  const fields = full
    .match(FULL_LINE)!
    .slice(1)
    .filter((f): f is string => f !== undefined);
  let rest = narrow.replace(/^[█░]+( |$)/, '');
  for (const f of fields) {
    if (rest === '') break;
    const candidates = f.startsWith('· ') ? f.split(', ').map((_, i, all) => all.slice(0, all.length - i).join(', ')) : [f];
    const hit = candidates.find((c) => rest === c || rest.startsWith(`${c} `));
    if (hit !== undefined) rest = rest.slice(hit.length).replace(/^ /, '');
  }
  return rest === '';
}

describe('ProgressMeter', () => {
  it('counts bytes against the Content-Length of the file in flight: one 1 GB video moves', async () => {
    let t = 0;
    const meter = new ProgressMeter(await loadMeasure(), () => t);
    meter.start(1);
    const video = job('demo');
    meter.fileStarted(video, 'demo.mp4', 1_000_000_000, 0);
    t = 1000;
    meter.fileBytes(video, 'demo.mp4', 250_000_000);
    const line = meter.line(120, 2000);
    expect(line).toMatch(/ 25% /);
    expect(line).toContain('250 MB/1.0 GB');
    expect(line).toContain('0/1 file');
    expect(line).toMatch(/125 MB\/s/);
    expect(line).toContain('ETA 6s');
    expect(line).toContain('· demo.mp4 25%');
  });

  it('a restart takes the file back; a resume starts from the bytes on disk', async () => {
    const meter = new ProgressMeter(await loadMeasure(), () => 0);
    meter.start(1);
    const a = job('a');
    meter.fileStarted(a, 'a.mp4', 1000, 0);
    meter.fileBytes(a, 'a.mp4', 600);
    meter.fileStarted(a, 'a.mp4', 1000, 0); // server ignored Range: starting over
    expect(meter.line(120)).toMatch(/\b0%/);
    meter.fileStarted(a, 'a.mp4', 1000, 400); // resumed from byte 400
    expect(meter.line(120)).toContain('40%');
  });

  it('estimates the total (~) while some sizes are unknown, and is exact once all are known', async () => {
    const meter = new ProgressMeter(await loadMeasure(), () => 0);
    meter.start(2);
    const [a, b] = [job('a'), job('b')];
    meter.fileStarted(a, 'a.mp4', 1000, 0);
    meter.fileBytes(a, 'a.mp4', 1000);
    meter.fileDone(a, 'fetched');
    expect(meter.line(120)).toContain('1.0 kB/~2.0 kB');
    meter.fileStarted(b, 'b.mp4', 3000, 0);
    expect(meter.line(120)).toContain('1.0 kB/4.0 kB');
    expect(meter.line(120)).toContain('25%');
  });

  for (const width of [20, 30, 40, 60, 80, 120, 200]) {
    it(`at ${width} columns the line fits and no field is cut`, async () => {
      let t = 0;
      const meter = new ProgressMeter(await loadMeasure(), () => t);
      meter.start(12);
      for (const name of ['start', 'end', 'demo']) {
        const j = job(name, name === 'demo' ? 'mp4' : 'png');
        meter.fileStarted(j, `${name}.${name === 'demo' ? 'mp4' : 'png'}`, 123_456_789, 0);
        meter.fileBytes(j, j.path, 45_678_901);
      }
      t = 3000;
      const line = meter.line(width);
      const full = meter.line(1000);
      expect(full).toMatch(FULL_LINE);
      expect(stringWidth(line)).toBeLessThan(width);
      expect(isWholeFields(line, full), `${line}\n${full}`).toBe(true);
      expect(line).toMatch(/\d+%/); // the percent goes last of all
    });
  }

  it('formats durations and sizes without cut numbers', () => {
    expect(formatDuration(5)).toBe('5s');
    expect(formatDuration(65)).toBe('1m05s');
    expect(formatDuration(7260)).toBe('2h01m');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(999_960)).toBe('1.0 MB');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
  });
});

describe('the sink on a stream', () => {
  it('redraws one line in place and clears it when the run stops', async () => {
    const stream = new MemoryOutput();
    let t = 0;
    const sink = await createProgress(stream, { columns: 60, intervalMs: 0, now: () => t });
    sink.start(1);
    const a = job('a');
    sink.fileStarted(a, 1_000_000, 0);
    sink.fileBytes(a, 500_000);
    t = 1000;
    sink.redraw();
    expect(stream.text()).toMatch(/\r[^\n]*50%[^\n]*\u001b\[K$/);
    expect(stream.text()).not.toContain('\n');
    sink.stop();
    expect(stream.text().endsWith('\r\u001b[K')).toBe(true);
  });

  it('names each file in flight by its exercise and file, <id>/<file>', async () => {
    const stream = new MemoryOutput();
    const sink = await createProgress(stream, { columns: 200, intervalMs: 0, now: () => 0 });
    sink.start(2);
    const plank: MediaJob = { ...job('demo'), exerciseId: 'Plank', path: '/nonexistent/Plank/demo.mp4' };
    const pushUp: MediaJob = { ...job('demo'), exerciseId: 'Push_Up', path: '/nonexistent/Push_Up/demo.mp4' };
    sink.fileStarted(plank, 1000, 0);
    sink.fileBytes(plank, 230);
    sink.fileStarted(pushUp, 1000, 0);
    sink.fileBytes(pushUp, 220);
    sink.redraw();
    expect(stream.text()).toContain('· Plank/demo.mp4 23%, Push_Up/demo.mp4 22%');
    sink.stop();
  });

  it('takes the width of a terminal stream when it has one', async () => {
    const stream = new MemoryOutput(true, 30);
    const sink = await createProgress(stream, { columns: 200, intervalMs: 0, now: () => 0 });
    sink.start(1);
    sink.redraw();
    const line = stream.text().split('\r').pop()!.replace('\u001b[K', '');
    expect(stringWidth(line)).toBeLessThan(30);
  });

  it("runBulk tells the sink each file's size, bytes and end", async () => {
    const stream = new MemoryOutput();
    const sink = await createProgress(stream, { columns: 100, intervalMs: 0, now: () => 0 });
    const seen: string[] = [];
    const summary = await runBulk([job('a'), job('b')], {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      progress: {
        ...sink,
        fileStarted: (j, size, from) => seen.push(`start ${j.name} ${size} ${from}`),
        fileBytes: (j, n) => seen.push(`bytes ${j.name} ${n}`),
        fileDone: (o: JobOutcome) => seen.push(`done ${o.job.name} ${o.status}`),
      },
      download: async (j, file, signal, slot) => {
        await slot.take(signal);
        file.started(10, 0);
        file.bytes(10);
        return { received: 10, size: 10, resumed: false };
      },
    });
    expect(seen).toEqual(['start a 10 0', 'bytes a 10', 'done a fetched', 'start b 10 0', 'bytes b 10', 'done b fetched']);
    expect(summary).toMatchObject({ total: 2, fetched: 2, bytes: 20 });
  });
});

describe('the single-file meter (-o file)', () => {
  for (const width of [40, 80]) {
    it(`at ${width} columns shows percent, bytes and ETA of the one file`, async () => {
      const stream = new MemoryOutput();
      let t = 0;
      const meter = await createFileMeter(stream, 'bench.mp4', { columns: width, intervalMs: 0, now: () => t });
      meter.started(200_000_000, 0);
      t = 2000;
      meter.bytes(50_000_000);
      meter.redraw();
      const line = stream.text().split('\r').pop()!.replace('\u001b[K', '');
      expect(stringWidth(line)).toBeLessThan(width);
      expect(line).toContain('25%');
      expect(line).toContain('50.0 MB/200 MB');
      if (width >= 80) expect(line).toMatch(/^bench\.mp4 [█░]+ 25% 50\.0 MB\/200 MB 25\.0 MB\/s ETA 6s$/);
      meter.stop();
    });
  }

  it('without a Content-Length shows what arrived and the rate', async () => {
    const stream = new MemoryOutput();
    let t = 0;
    const meter = await createFileMeter(stream, 'x.png', { columns: 80, intervalMs: 0, now: () => t });
    meter.started(undefined, 0);
    t = 1000;
    meter.bytes(2_000_000);
    meter.redraw();
    expect(stream.text()).toMatch(/x\.png 2\.0 MB 2\.0 MB\/s/);
  });
});

describe('summaries', () => {
  function summary(statuses: Array<'fetched' | 'skipped' | 'failed'>, total = statuses.length, error: Error = new NetworkError('reset')): BulkSummary {
    const outcomes: JobOutcome[] = statuses.map((status, i) => ({ job: job(`f${i}`), status, bytes: 0, ...(status === 'failed' ? { error } : {}) }));
    const count = (s: string) => statuses.filter((x) => x === s).length;
    return {
      total,
      fetched: count('fetched'),
      skipped: count('skipped'),
      failed: count('failed'),
      bytes: 0,
      seconds: 1,
      outcomes,
      stoppedEarly: total > statuses.length,
    };
  }

  it('never says "the others are in place" when every file failed', () => {
    const all = partialFailure(summary(['failed', 'failed', 'failed']));
    expect(all).toBeInstanceOf(PartialFailureError);
    expect(all.message).toBe('All 3 files failed; nothing was saved.');
    expect(partialFailure(summary(['failed'])).message).toBe('The file failed; nothing was saved.');
  });

  it('names what is in place and what was not tried', () => {
    expect(partialFailure(summary(['fetched', 'failed', 'skipped'])).message).toBe('1 of 3 files failed; the other 2 are in place.');
    expect(partialFailure(summary(['fetched', 'failed'])).message).toBe('1 of 2 files failed; the other is in place.');
    expect(partialFailure(summary(['fetched', 'failed'], 5)).message).toBe('1 of 5 files failed; 1 is in place; 3 were not tried (--fail-fast).');
  });

  it('suggests a rerun only when a rerun can help', () => {
    expect(partialFailure(summary(['fetched', 'failed'])).hint).toMatch(/Run the same command again/);
    expect(partialFailure(summary(['fetched', 'failed'], 2, new NotFoundError('gone'))).hint).toBeUndefined();
  });

  it('failure lines quote server text on one clean line', () => {
    const lines = summaryLines(summary(['failed'], 1, new NetworkError('bad\u001b]0;x\u0007 gateway\nline')));
    expect(lines[1]).toBe('  failed: video "f0" of exercise X: bad gateway line');
  });

  it('Ctrl-C says what finished before it', async () => {
    const abort = new AbortController();
    let calls = 0;
    const run = runBulk([job('a'), job('b'), job('c')], {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      signal: abort.signal,
      download: async (_j, file) => {
        if (++calls === 2) {
          abort.abort();
          throw new InterruptedError();
        }
        file.bytes(1500);
        return { received: 1500, size: 1500, resumed: false };
      },
    });
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as InterruptedError).message).toBe('Interrupted after it fetched 1 of 3 files (1.5 kB).');
    expect((err as InterruptedError).hint).toMatch(/complete files are skipped/);
  });
});
