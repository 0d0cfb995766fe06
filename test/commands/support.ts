/**
 * What the command tests share: a context over fake streams whose requests go to a fake
 * transport (test/helpers/httpmock.ts) with a key and base URL set, and a few records.
 * Each test calls a command's run(options, ctx) directly (runCommand), as gh's tests call
 * a command's run function with iostreams.Test() and httpmock.
 */
import { onTestFinished } from 'vitest';
import type { ExerciseRecord, ListResponse } from '../../src/catalogue/types.js';
import { FAKE_BASE_URL, FAKE_KEY, type HttpMock, httpmock } from '../helpers/httpmock.js';
import { type TestContext, type TestContextOptions, testContext } from '../helpers/test-context.js';

export { FAKE_BASE_URL, FAKE_KEY };

export const BENCH: ExerciseRecord = {
  id: 'Barbell_Bench_Press',
  name: 'Barbell Bench Press',
  category: 'STRENGTH',
  primaryMuscle: ['CHEST'],
  secondaryMuscle: ['TRICEPS'],
  level: 'BEGINNER',
  equipment: 'BARBELL',
  instructions: ['Lie on the bench.', 'Press the bar up.'],
  premiumImages: ['start', 'end'],
  premiumVideos: ['demo'],
} as unknown as ExerciseRecord;

export const PLANK: ExerciseRecord = {
  id: 'Plank',
  name: 'Plank',
  category: 'STRENGTH',
  primaryMuscle: ['ABDOMINALS'],
  level: 'BEGINNER',
  instructions: ['Hold still.'],
  premiumImages: ['start'],
  premiumVideos: [],
} as unknown as ExerciseRecord;

/** One page of a list answer; `next` null ends the listing, `total` counts every page's (default: this one's). */
export function page(exercises: ExerciseRecord[], next: string | null = null, total = exercises.length): ListResponse {
  return { exercises, pagination: { total, next, prev: null } } as ListResponse;
}

export interface FakeRun extends TestContext {
  http: HttpMock;
}

/**
 * A test context whose API client talks to a fresh fake transport, with the fake base URL and
 * key in the environment and no retries (a test that wants them sets `globals.retries`). When
 * the test ends its transport is closed and, if the test passed, verified: every answer it
 * registered was asked for. (Per test, not a file-level hook: test files share this module.)
 */
export function fakeRun(options: TestContextOptions = {}): FakeRun {
  const http = httpmock();
  onTestFinished(async (ctx) => {
    try {
      // On a passing test only: a failing one has said what went wrong.
      if (ctx.task.result?.state !== 'fail') http.verify();
    } finally {
      await http.close();
    }
  });
  const t = testContext({
    ...options,
    env: { EXERCISES_BASE_URL: FAKE_BASE_URL, EXERCISES_API_KEY: FAKE_KEY, ...options.env },
    globals: { retries: 0, ...options.globals },
    dispatcher: http.agent,
  });
  return { ...t, http };
}
