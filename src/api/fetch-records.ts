/**
 * Full records for a stream of ids, at most `concurrency` requests in flight, outcomes in input order. A
 * failure is an outcome, not a throw: the caller decides which stop the run and which are per id.
 */
import type { ExerciseRecord } from '../catalogue/types.js';
import type { ApiClient } from './client.js';

export type RecordOutcome = { id: string; record: ExerciseRecord } | { id: string; error: unknown };

export interface FetchRecordsOptions {
  lang?: string;
  concurrency: number;
}

type Next = { kind: 'id'; result: IteratorResult<string> } | { kind: 'answer' };

export async function* fetchRecords(api: ApiClient, ids: AsyncIterable<string>, options: FetchRecordsOptions): AsyncIterable<RecordOutcome> {
  const fetchOne = (id: string): Promise<RecordOutcome> =>
    api.getExercise(id, options.lang ? { lang: options.lang } : {}).then(
      (record) => ({ id, record }),
      (error: unknown) => ({ id, error }),
    );
  const limit = Math.max(1, options.concurrency);
  const input = ids[Symbol.asyncIterator]();
  // In flight, oldest first: yielded in order, so output keeps the input order.
  const window: Promise<RecordOutcome>[] = [];
  const pull = (): Promise<IteratorResult<string>> => {
    const next = input.next();
    next.catch(() => {}); // a bad line of input is reported when awaited below, not as an unhandled rejection
    return next;
  };
  let pending: Promise<IteratorResult<string>> | undefined = pull();

  while (pending || window.length > 0) {
    if (pending && window.length < limit) {
      // Take whichever comes first, the next id or the oldest answer: a slow producer never holds back answers.
      const next: Next = await Promise.race([
        pending.then((result): Next => ({ kind: 'id', result })),
        ...(window.length > 0 ? [window[0]!.then((): Next => ({ kind: 'answer' }))] : []),
      ]);
      if (next.kind === 'answer') {
        yield await window.shift()!;
      } else if (next.result.done) {
        pending = undefined;
      } else {
        window.push(fetchOne(next.result.value));
        pending = pull();
      }
      continue;
    }
    yield await window.shift()!;
  }
}
