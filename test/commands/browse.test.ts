/** `exercises ids` and `exercises show`: run(options, ctx) in-process against a fake transport. */
import { describe, expect, it } from 'vitest';
import { run as ids } from '../../src/commands/ids.js';
import { run as show, showOptions } from '../../src/commands/show.js';
import { pagingFromOptions } from '../../src/commands/shared/list-output.js';
import { runCommand } from '../helpers/test-context.js';
import { BENCH, PLANK, fakeRun, page } from './support.js';

describe('ids run()', () => {
  it('prints each id and name, one per line, from /exercise/exerciseIds', async () => {
    const t = fakeRun();
    t.http.json('/exercise/exerciseIds', page([BENCH, PLANK]));
    const r = await runCommand(ids, { paging: pagingFromOptions({}) }, t);
    expect(r.code, r.stderr).toBe(0);
    expect(t.http.requests()[0]).toMatch(/^\/exercise\/exerciseIds/);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['Barbell_Bench_Press', 'Plank']);
  });

  it('a 403 is exit 3 and prints nothing on stdout', async () => {
    const t = fakeRun();
    t.http.error('/exercise/exerciseIds', 403, 'FORBIDDEN', 'Your plan does not allow this.');
    const r = await runCommand(ids, { paging: pagingFromOptions({}) }, t);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: /m);
  });

  it('a 503 is exit 6 after the retries allowed', async () => {
    const t = fakeRun({ globals: { retries: 1 } });
    t.http.error('/exercise/exerciseIds', 503, 'UNAVAILABLE', 'down for a moment', { times: 2, headers: { 'retry-after': '0' } });
    const r = await runCommand(ids, { paging: pagingFromOptions({}) }, t);
    expect(r.code).toBe(6);
    expect(t.http.requests()).toHaveLength(2);
  });

  it('--after with --before is a usage error before any request', () => {
    expect(() => pagingFromOptions({ after: 'a', before: 'b' })).toThrow(/cannot be used together/);
  });
});

describe('show run()', () => {
  it('prints the record asked for by id, as JSON with --json', async () => {
    const t = fakeRun({ globals: { json: true } });
    t.http.json('/exercise/Barbell_Bench_Press', BENCH);
    const r = await runCommand(show, showOptions(['Barbell_Bench_Press']), t);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'Barbell_Bench_Press', name: 'Barbell Bench Press' });
  });

  it('a name is sent as one percent-encoded path segment', async () => {
    const t = fakeRun();
    t.http.json('/exercise/Barbell%20Bench%20Press', BENCH);
    const r = await runCommand(show, showOptions(['Barbell Bench Press']), t);
    expect(r.code, r.stderr).toBe(0);
    expect(t.http.requests()).toEqual(['/exercise/Barbell%20Bench%20Press']);
    expect(r.stdout).toContain('Barbell Bench Press');
  });

  it('a 404 is exit 4 naming the exercise, with a hint', async () => {
    const t = fakeRun();
    t.http.error('/exercise/Nope', 404, 'NOT_FOUND', 'No such exercise.');
    const r = await runCommand(show, showOptions(['Nope']), t);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('No exercise has the id or name "Nope".');
    expect(r.stderr).toMatch(/exercises query --name/);
  });

  it('with several ids, each missing one is named and the others are printed', async () => {
    const t = fakeRun({ globals: { format: 'jsonl' } });
    t.http.json('/exercise/Plank', PLANK);
    t.http.error('/exercise/Nope', 404, 'NOT_FOUND', 'No such exercise.');
    const r = await runCommand(show, showOptions(['Plank', 'Nope']), t);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Not found: Nope');
    expect(r.stderr).toContain('1 of 2 exercises was not found');
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ id: 'Plank' });
  });

  it('a 401 stops the run with exit 3', async () => {
    const t = fakeRun();
    t.http.error('/exercise/Plank', 401, 'UNAUTHORIZED', 'Bad key.');
    const r = await runCommand(show, showOptions(['Plank']), t);
    expect(r.code).toBe(3);
  });

  it('no id at all, not at a terminal, is a usage error (exit 2) and sends nothing', async () => {
    const t = fakeRun();
    const r = await runCommand(show, showOptions([]), t);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at least one exercise id/);
    expect(t.http.requests()).toEqual([]);
  });
});
