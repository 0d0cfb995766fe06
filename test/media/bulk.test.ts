/** The bulk engine's bookkeeping: --fail-fast and the stoppedEarly flag of the summary, and the files resumed. */
import { describe, expect, it } from 'vitest';
import { runBulk } from '../../src/media/bulk.js';
import type { MediaJob } from '../../src/media/jobs.js';
import { AuthError, NetworkError } from '../../src/errors.js';
import { summaryJson, summaryLines } from '../../src/media/bulk-summary.js';

const jobs: MediaJob[] = ['a', 'b', 'c', 'd'].map((name) => ({
  exerciseId: 'X',
  kind: 'image',
  name,
  url: new URL(`http://127.0.0.1:9/images/X/premium/${name}.png`),
  dir: '/nonexistent',
  path: `/nonexistent/X/${name}.png`,
  what: `image "${name}" of exercise X`,
}));

/** Runs the jobs one at a time; the job named `failing` fails. */
function run(failing: string, failFast: boolean) {
  return runBulk(jobs, {
    concurrency: 1,
    skipExisting: false,
    failFast,
    download: async (job, _progress, signal, slot) => {
      await slot.take(signal);
      if (job.name === failing) throw new NetworkError('dropped');
      return { received: 1, size: 1, resumed: false };
    },
  });
}

describe('runBulk --fail-fast', () => {
  it('stops at the first failure and says so when jobs were left', async () => {
    const summary = await run('b', true);
    expect(summary).toMatchObject({ fetched: 1, failed: 1, stoppedEarly: true });
    expect(summary.outcomes.map((o) => o.job.name)).toEqual(['a', 'b']);
  });

  it('does not claim an early stop when the failure was the last job', async () => {
    expect(await run('d', true)).toMatchObject({ fetched: 3, failed: 1, stoppedEarly: false });
  });

  it('without it, carries on past a failure', async () => {
    expect(await run('b', false)).toMatchObject({ fetched: 3, failed: 1, stoppedEarly: false });
  });
});

describe('the summary of a run that resumed files', () => {
  it('counts the files that continued a .part, in the line and in the JSON', async () => {
    const summary = await runBulk(jobs, {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      download: async (job, _progress, signal, slot) => {
        await slot.take(signal);
        return { received: 10, size: 100, resumed: job.name !== 'a' };
      },
    });
    expect(summaryLines(summary)[0]).toMatch(
      /^Fetched 4 files \(40 B\) in [\d.]+ s( \([^)]*\))?; 3 of them resumed from a \.part; 0 already present; 0 failed\.$/,
    );
    const json = summaryJson(summary);
    expect(json.resumed).toBe(3);
    expect((json.files as Array<{ resumed?: boolean }>).map((f) => f.resumed === true)).toEqual([false, true, true, true]);
  });

  it('says nothing of resuming when no file was resumed', async () => {
    const summary = await runBulk(jobs, {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      download: async (_job, _progress, signal, slot) => {
        await slot.take(signal);
        return { received: 1, size: 1, resumed: false };
      },
    });
    expect(summaryLines(summary)[0]).not.toContain('resumed');
    expect(summaryJson(summary).resumed).toBe(0);
  });
});

describe('one pool for a run whose jobs arrive in batches (a listing, page by page)', () => {
  const named = (names: string[]): MediaJob[] => names.map((name) => ({ ...jobs[0]!, name, path: `/nonexistent/X/${name}.png` }));
  const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("starts the next batch's jobs while a slow job of the batch before is still running, never more than --concurrency at once", async () => {
    const events: string[] = [];
    let inFlight = 0;
    let peak = 0;
    let lastStarted!: () => void;
    const b3Started = new Promise<void>((r) => (lastStarted = r));
    async function* pages() {
      yield named(['slow', 'a1']);
      await tick(20); // the next page takes a round trip
      yield named(['b1', 'b2', 'b3']);
    }
    const summary = await runBulk(pages(), {
      concurrency: 2,
      skipExisting: false,
      failFast: false,
      download: async (job, _progress, signal, slot) => {
        await slot.take(signal);
        inFlight++;
        peak = Math.max(peak, inFlight);
        events.push(`start ${job.name}`);
        if (job.name === 'b3') lastStarted();
        // `slow` lasts until the second page's last file has started, or 5 s: a pool per page never gets there.
        await (job.name === 'slow' ? Promise.race([b3Started, tick(5000)]) : tick(10));
        events.push(`end ${job.name}`);
        inFlight--;
        return { received: 1, size: 1, resumed: false };
      },
    });
    // A pool per page would wait for `slow` before the second page's first file.
    expect(events.indexOf('start b3')).toBeLessThan(events.indexOf('end slow'));
    expect(peak).toBe(2);
    expect(summary).toMatchObject({ total: 5, fetched: 5, failed: 0, stoppedEarly: false });
    // The summary keeps the listing's order, whatever order the files finished in.
    expect(summary.outcomes.map((o) => o.job.name)).toEqual(['slow', 'a1', 'b1', 'b2', 'b3']);
  });

  it('tells one progress sink of every batch: started once, then more files as pages come', async () => {
    const told: string[] = [];
    async function* pages() {
      yield named(['a1', 'a2']);
      yield named(['b1']);
    }
    await runBulk(pages(), {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      progress: {
        start: (n) => told.push(`start ${n}`),
        addFiles: (n) => told.push(`add ${n}`),
        fileStarted: () => {},
        fileBytes: () => {},
        fileDone: (o) => told.push(`done ${o.job.name}`),
        stop: () => told.push('stop'),
      },
      download: async (_job, _progress, signal, slot) => {
        await slot.take(signal);
        return { received: 1, size: 1, resumed: false };
      },
    });
    // The second page may come while a2 downloads: when it is told depends on that, not what.
    expect(told[0]).toBe('start 2');
    expect(told.filter((t) => t.startsWith('start'))).toHaveLength(1);
    expect(told.filter((t) => t.startsWith('add'))).toEqual(['add 1']);
    expect(told.indexOf('add 1')).toBeLessThan(told.indexOf('done b1'));
    expect(told.filter((t) => t.startsWith('done')).sort()).toEqual(['done a1', 'done a2', 'done b1']);
    expect(told.at(-1)).toBe('stop');
  });

  it('a listing that fails part-way: the files it listed are fetched, then its error is the run’s', async () => {
    const fetched: string[] = [];
    async function* pages(): AsyncGenerator<MediaJob[]> {
      yield named(['a1', 'a2']);
      throw new NetworkError('the second page never came');
    }
    await expect(
      runBulk(pages(), {
        concurrency: 2,
        skipExisting: false,
        failFast: false,
        download: async (job, _progress, signal, slot) => {
          await slot.take(signal);
          await tick(10);
          fetched.push(job.name);
          return { received: 1, size: 1, resumed: false };
        },
      }),
    ).rejects.toThrow('the second page never came');
    expect(fetched.sort()).toEqual(['a1', 'a2']);
  });

  it('a run that stops early does not wait for the page being asked for', async () => {
    let release!: () => void;
    const hanging = new Promise<void>((r) => (release = r));
    async function* pages() {
      yield named(['a1']);
      await hanging; // the next page never comes while the run lasts
      yield named(['b1']);
    }
    const started = performance.now();
    const summary = await runBulk(pages(), {
      concurrency: 1,
      skipExisting: false,
      failFast: true,
      download: async (_job, _progress, signal, slot) => {
        await slot.take(signal);
        throw new NetworkError('dropped');
      },
    });
    release();
    expect(summary).toMatchObject({ failed: 1, fetched: 0 });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('--fail-fast stops the listing too: no page after the failure is asked for', async () => {
    let pagesAsked = 0;
    async function* pages() {
      for (let p = 0; p < 50; p++) {
        pagesAsked++;
        yield named([`p${p}a`, `p${p}b`]);
      }
    }
    const summary = await runBulk(pages(), {
      concurrency: 1,
      skipExisting: false,
      failFast: true,
      download: async (job, _progress, signal, slot) => {
        await slot.take(signal);
        if (job.name === 'p1a') throw new NetworkError('dropped');
        return { received: 1, size: 1, resumed: false };
      },
    });
    expect(summary).toMatchObject({ fetched: 2, failed: 1, stoppedEarly: true });
    // p1 held by the two downloads of the one slot, two pages queued behind them; none asked after the failure.
    expect(pagesAsked).toBeLessThanOrEqual(4);
  });
});

describe('request slots: --concurrency requests at once, the next files made ready meanwhile', () => {
  const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("prepares the next file while a slot is busy, and sends its request as soon as the slot's body ends", async () => {
    const events: string[] = [];
    let sending = 0;
    let peak = 0;
    const summary = await runBulk(jobs, {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      download: async (job, _progress, signal, slot) => {
        await tick(20); // the folder, the lock, the .part: before any request
        events.push(`ready ${job.name}`);
        await slot.take(signal);
        peak = Math.max(peak, ++sending);
        await tick(20); // the request and its body
        sending--;
        slot.release();
        events.push(`sent ${job.name}`);
        await tick(20); // verify and rename, the slot already free
        return { received: 1, size: 1, resumed: false };
      },
    });
    expect(summary).toMatchObject({ fetched: 4, failed: 0 });
    expect(peak).toBe(1);
    // b was made ready while a held the slot, not after a was renamed.
    expect(events.indexOf('ready b')).toBeLessThan(events.indexOf('sent a'));
    expect(events.filter((e) => e.startsWith('sent'))).toEqual(['sent a', 'sent b', 'sent c', 'sent d']);
  });

  it('a fatal failure stops the run before a download waiting for the slot can send', async () => {
    const sent: string[] = [];
    const err = await runBulk(jobs, {
      concurrency: 1,
      skipExisting: false,
      failFast: false,
      download: async (job, _progress, signal, slot) => {
        await slot.take(signal);
        sent.push(job.name);
        await tick(5);
        throw new AuthError('refused (403)');
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(sent).toEqual(['a']);
  });
});
