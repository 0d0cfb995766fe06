import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { fetchRecords } from '../../src/api/fetch-records.js';
import { NotFoundError } from '../../src/errors.js';

async function* from<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

/** A client whose answers arrive in reverse order of asking, counting requests in flight. */
function slowClient(delays: Record<string, number>) {
  let inFlight = 0;
  let peak = 0;
  const api = {
    getExercise: async (id: string) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, delays[id] ?? 1));
      inFlight--;
      if (id === 'missing') throw new NotFoundError('no such exercise');
      return { id, name: id.toUpperCase() };
    },
  } as unknown as ApiClient;
  return { api, peak: () => peak };
}

describe('fetchRecords', () => {
  it('yields outcomes in input order whatever order the answers arrive in', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const { api } = slowClient({ a: 40, b: 30, c: 20, d: 10, e: 1 });
    const seen: string[] = [];
    for await (const o of fetchRecords(api, from(ids), { concurrency: 3 })) seen.push(o.id);
    expect(seen).toEqual(ids);
  });

  it('never has more requests in flight than asked', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `id${i}`);
    const { api, peak } = slowClient({});
    let count = 0;
    for await (const _ of fetchRecords(api, from(ids), { concurrency: 4 })) count++;
    expect(count).toBe(20);
    expect(peak()).toBeLessThanOrEqual(4);
    expect(peak()).toBeGreaterThan(1);
  });

  it('reports a failure as an outcome for that id, and carries on', async () => {
    const { api } = slowClient({});
    const outcomes = [];
    for await (const o of fetchRecords(api, from(['a', 'missing', 'b']), { concurrency: 2 })) outcomes.push(o);
    expect(outcomes.map((o) => ('record' in o ? o.record.name : 'error'))).toEqual(['A', 'error', 'B']);
    const failed = outcomes[1]!;
    expect('error' in failed && failed.error).toBeInstanceOf(NotFoundError);
  });
});

describe('fetchRecords with a slow producer', () => {
  it('yields each answer as soon as it is here, without waiting for more ids', async () => {
    const { api } = slowClient({});
    let release!: () => void;
    const secondIdMayCome = new Promise<void>((r) => (release = r));
    // The second id arrives only once the first answer has been seen: buffering would deadlock.
    async function* ids(): AsyncIterable<string> {
      yield 'a';
      await secondIdMayCome;
      yield 'b';
    }
    const seen: string[] = [];
    const run = (async () => {
      for await (const o of fetchRecords(api, ids(), { concurrency: 8 })) {
        seen.push(o.id);
        if (o.id === 'a') release();
      }
    })();
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('answers were held back')), 2000));
    await Promise.race([run, timeout]);
    expect(seen).toEqual(['a', 'b']);
  });

  it('passes on a failure of the id source', async () => {
    const { api } = slowClient({});
    async function* ids(): AsyncIterable<string> {
      yield 'a';
      throw new Error('line 2 of stdin is not valid JSON');
    }
    const run = async () => {
      for await (const _ of fetchRecords(api, ids(), { concurrency: 2 })) {
        // consume
      }
    };
    await expect(run()).rejects.toThrow('line 2 of stdin');
  });
});
