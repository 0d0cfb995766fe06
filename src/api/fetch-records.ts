/**
 * Full records for a stream of ids, with at most `concurrency` requests in flight and the
 * outcomes yielded in input order: `show` prints them as they come, `download` plans media
 * jobs from them. A failure is an outcome, not a throw, so the caller decides which errors
 * stop the run (auth, network) and which are per-id (not found).
 */
import type { ExerciseRecord } from '../catalogue/types.js';
import type { ApiClient } from './client.js';

export type RecordOutcome = { id: string; record: ExerciseRecord } | { id: string; error: unknown };

export interface FetchRecordsOptions {
  lang?: string;
  /** Requests in flight at once (at least 1). */
  concurrency: number;
}

export async function* fetchRecords(api: ApiClient, ids: AsyncIterable<string>, options: FetchRecordsOptions): AsyncIterable<RecordOutcome> {
  const fetchOne = (id: string): Promise<RecordOutcome> =>
    api.getExercise(id, options.lang ? { lang: options.lang } : {}).then(
      (record) => ({ id, record }),
      (error: unknown) => ({ id, error }),
    );
  // A sliding window: the oldest request is awaited first, so output keeps the input order.
  const window: Promise<RecordOutcome>[] = [];
  const limit = Math.max(1, options.concurrency);
  for await (const id of ids) {
    window.push(fetchOne(id));
    if (window.length >= limit) yield await window.shift()!;
  }
  while (window.length > 0) yield await window.shift()!;
}
