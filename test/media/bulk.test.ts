/** The bulk engine's bookkeeping: --fail-fast and the stoppedEarly flag of the summary, and the files resumed. */
import { describe, expect, it } from 'vitest';
import { runBulk } from '../../src/media/bulk.js';
import type { MediaJob } from '../../src/media/jobs.js';
import { NetworkError } from '../../src/errors.js';
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
    download: async (job) => {
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
      download: async (job) => ({ received: 10, size: 100, resumed: job.name !== 'a' }),
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
      download: async () => ({ received: 1, size: 1, resumed: false }),
    });
    expect(summaryLines(summary)[0]).not.toContain('resumed');
    expect(summaryJson(summary).resumed).toBe(0);
  });
});
