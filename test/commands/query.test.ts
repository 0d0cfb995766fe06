/** `exercises query`: run(options, ctx) in-process against a fake transport. */
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/query.js';
import { queryParamsFromOptions } from '../../src/commands/shared/query-filters.js';
import { pagingFromOptions } from '../../src/commands/shared/list-output.js';
import { runCommand } from '../helpers/test-context.js';
import { BENCH, FAKE_KEY, PLANK, fakeRun, page } from './support.js';

const options = (opts: Record<string, unknown> = {}) => ({ filters: queryParamsFromOptions(opts), paging: pagingFromOptions(opts) });

describe('query run()', () => {
  it('sends the filters as query parameters with the key, and prints one row per exercise', async () => {
    const t = fakeRun();
    t.http.json('/exercise/query', page([BENCH, PLANK]));
    const r = await runCommand(run, options({ muscle: 'chest', level: ['beginner'] }), t);
    expect(r.code, r.stderr).toBe(0);
    expect(t.http.requests()).toHaveLength(1);
    const sent = new URL(t.http.requests()[0]!, 'https://x');
    expect(sent.pathname).toBe('/exercise/query');
    expect(sent.searchParams.get('primaryMuscle')).toBe('CHEST');
    expect(sent.searchParams.getAll('level')).toEqual(['BEGINNER']);
    expect(t.http.headersOf(0)['x-api-key']).toBe(FAKE_KEY);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['Barbell_Bench_Press', 'Plank']);
  });

  it('--json prints the answer as JSON: the records and the pagination', async () => {
    const t = fakeRun({ globals: { json: true } });
    t.http.json('/exercise/query', page([PLANK]));
    const r = await runCommand(run, options(), t);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout) as { exercises: Array<{ id: string }>; pagination: { next: string | null } };
    expect(printed.exercises.map((e) => e.id)).toEqual(['Plank']);
    expect(printed.pagination.next).toBeNull();
  });

  it('--all follows the cursor to the end', async () => {
    const t = fakeRun();
    t.http.json((p) => p.startsWith('/exercise/query') && !p.includes('after='), page([BENCH], 'c2', 2));
    t.http.json((p) => p.startsWith('/exercise/query') && p.includes('after=c2'), page([PLANK], null, 2));
    const r = await runCommand(run, options({ all: true, limit: 1 }), t);
    expect(r.code, r.stderr).toBe(0);
    expect(t.http.requests()).toHaveLength(2);
    expect(r.stdout).toContain('Barbell_Bench_Press');
    expect(r.stdout).toContain('Plank');
  });

  it("a 401 is exit 3 with the service's reason", async () => {
    const t = fakeRun();
    t.http.error('/exercise/query', 401, 'UNAUTHORIZED', 'The API key is not valid.');
    const r = await runCommand(run, options(), t);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^Error: /);
    expect(r.stdout).toBe('');
  });

  it('a 429 is exit 5 (rate limited), after the retries allowed', async () => {
    const t = fakeRun({ globals: { retries: 1 } });
    t.http.error('/exercise/query', 429, 'RATE_LIMITED', 'Too many requests.', { times: 2 });
    const r = await runCommand(run, options(), t);
    expect(r.code).toBe(5);
    expect(t.http.requests()).toHaveLength(2);
    expect(r.stderr).toMatch(/rate/i);
  });

  it("an answer that is not the interface's shape is reported plainly, not printed", async () => {
    const t = fakeRun();
    t.http.json('/exercise/query', { exercises: 'not a list' });
    const r = await runCommand(run, options(), t);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/does not match the service interface/);
    expect(r.stdout).toBe('');
  });

  it('without a key: exit 3 before any request', async () => {
    const t = fakeRun({ env: { EXERCISES_API_KEY: undefined } });
    const r = await runCommand(run, options(), t);
    expect(r.code).toBe(3);
    expect(t.http.requests()).toEqual([]);
  });

  it('a bad enum value is a usage error (exit 2) naming the closest value, before any request', () => {
    expect(() => options({ muscle: 'chestt' })).toThrow(/Did you mean chest\?/);
    try {
      options({ muscle: 'chestt' });
    } catch (err) {
      expect((err as { exitCode: number }).exitCode).toBe(2);
    }
  });
});
