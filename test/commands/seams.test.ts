/**
 * The seams themselves: ContextOptions.api replaces the API client (no HTTP at all), and a
 * dispatcher handed to the context carries every request, is never closed by the run, and
 * lets nothing out (an unregistered request fails as a network error, exit 6).
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { run as ids } from '../../src/commands/ids.js';
import { run as show, showOptions } from '../../src/commands/show.js';
import { pagingFromOptions } from '../../src/commands/shared/list-output.js';
import { runCommand, testContext } from '../helpers/test-context.js';
import { FAKE_BASE_URL, FAKE_KEY, PLANK, fakeRun, page } from './support.js';

describe('ContextOptions.api', () => {
  it('a fake client answers the command, made for the connection in force', async () => {
    const made: Array<{ baseUrl: string; apiKey?: string | undefined }> = [];
    const fake = { getExercise: async (id: string) => ({ ...PLANK, id }) } as unknown as ApiClient;
    const t = testContext({
      env: { EXERCISES_BASE_URL: FAKE_BASE_URL, EXERCISES_API_KEY: FAKE_KEY },
      globals: { json: true },
      api: (target) => (made.push(target), fake),
    });
    const r = await runCommand(show, showOptions(['Plank']), t);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Plank', name: 'Plank' });
    expect(made).toMatchObject([{ baseUrl: FAKE_BASE_URL, apiKey: FAKE_KEY }]);
  });

  it('still needs a key: without one the fake is never made (exit 3)', async () => {
    let made = 0;
    const t = testContext({ env: { EXERCISES_BASE_URL: FAKE_BASE_URL }, api: () => (made++, {} as ApiClient) });
    const r = await runCommand(show, showOptions(['Plank']), t);
    expect(r.code).toBe(3);
    expect(made).toBe(0);
  });
});

describe('ContextOptions.dispatcher', () => {
  it('a request nothing was registered for fails as a network error (exit 6): nothing leaves the process', async () => {
    const t = fakeRun();
    const r = await runCommand(ids, { paging: pagingFromOptions({}) }, t);
    expect(r.code).toBe(6);
  });

  it('the run does not close the dispatcher it was given: the next run uses it again', async () => {
    const first = fakeRun();
    first.http.json('/exercise/exerciseIds', page([PLANK]), { times: 2 });
    expect((await runCommand(ids, { paging: pagingFromOptions({}) }, first)).code).toBe(0);
    const second = testContext({
      env: { EXERCISES_BASE_URL: FAKE_BASE_URL, EXERCISES_API_KEY: FAKE_KEY },
      globals: { cache: false },
      dispatcher: first.http.agent,
    });
    const r = await runCommand(ids, { paging: pagingFromOptions({}) }, second);
    expect(r.code, r.stderr).toBe(0);
    expect(first.http.requests()).toHaveLength(2);
  });
});
