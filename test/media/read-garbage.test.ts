/**
 * read-garbage.ts: a download's socket reads are collected by a minor collection every
 * READ_GARBAGE_BYTES, run through V8's gc function, which is had without leaving --expose-gc on.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { READ_GARBAGE_BYTES, noteRead } from '../../src/media/download/read-garbage.js';

/** The kinds of the collections that ran while `work` did (perf_hooks 'gc' entries). */
async function collectionsDuring(work: () => void): Promise<number[]> {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) kinds.push((entry as PerformanceEntry & { detail: { kind: number } }).detail.kind);
  });
  observer.observe({ entryTypes: ['gc'] });
  work();
  // Entries are delivered asynchronously.
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  return kinds;
}

describe('noteRead', () => {
  it('runs a minor collection once READ_GARBAGE_BYTES have been read, and none before', async () => {
    noteRead(READ_GARBAGE_BYTES); // whatever was counted before, the count starts anew after this
    const before = await collectionsDuring(() => noteRead(READ_GARBAGE_BYTES - 1));
    expect(before.filter((k) => k === constants.NODE_PERFORMANCE_GC_MINOR)).toHaveLength(0);
    const at = await collectionsDuring(() => noteRead(1));
    expect(at).toContain(constants.NODE_PERFORMANCE_GC_MINOR);
  });

  it('leaves --expose-gc off: a new context has no gc function', () => {
    noteRead(READ_GARBAGE_BYTES);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
