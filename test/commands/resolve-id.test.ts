/**
 * What `show`, `image` and `video` make of the text typed (src/commands/shared/requested-ids.ts):
 * an id in any case, a name, an alias, from what is known locally; a part of names taken
 * when it is one exercise and listed when it is several; the service asked nothing more
 * unless --search says so (one listing request).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { isolatedHome, tempDir } from '../helpers/temp.js';
import { serverEnv } from '../helpers/fixtures.js';
import { nameQuery } from '../../src/commands/shared/requested-ids.js';

const firstId = (stdout: string): string => (JSON.parse(stdout) as { id: string }).id;

describe('with local records (--sandbox, --catalogue)', () => {
  it.each([
    ['push_up', 'Push_Up'],
    ['PUSH_UP', 'Push_Up'],
    ['Barbell Bench Press', 'Barbell_Bench_Press'],
    ['barbell bench press', 'Barbell_Bench_Press'],
    ['Flat Bench', 'Barbell_Bench_Press'],
    ['flat bench', 'Barbell_Bench_Press'],
  ])('show %j finds %s, with no notice (an exact match)', async (typed, id) => {
    const r = await runInProcess(['--sandbox', 'show', typed, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(firstId(r.stdout)).toBe(id);
    expect(r.stderr).toBe('');
  });

  it('a unique part of a name is taken, with a one-line notice saying so', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'paused ben', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(firstId(r.stdout)).toBe('Paused_Bench_Press');
    expect(r.stderr).toBe('Taking Paused_Bench_Press ("Paused Bench Press"), the one exercise in the catalogue whose name or alias contains "paused ben".\n');
    const quiet = await runInProcess(['--sandbox', '--quiet', 'show', 'paused ben', '--format', 'json']);
    expect(quiet.stderr).toBe('');
  });

  it('a part of several names lists them with their ids and the exact query to run, exit 4', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'bench press']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('"bench press" is part of the names of 3 exercises; give one of their ids:');
    expect(r.stderr).toContain('  Barbell_Bench_Press ("Barbell Bench Press")');
    expect(r.stderr).toContain('  Paused_Bench_Press ("Paused Bench Press")');
    expect(r.stderr).toContain('List them with `exercises query --name "bench press"`.');
    expect(r.stderr).not.toContain('<text>');
  });

  it('lists at most ten, saying how many more', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'e', '--format', 'json']);
    expect(r.code).toBe(4);
    const listed = r.stderr.split('\n').filter((l) => /^ {2}\S/.test(l) && !l.startsWith('  …'));
    expect(listed).toHaveLength(10);
    expect(r.stderr).toMatch(/ {2}… and \d+ more/);
    const json = JSON.parse(r.stderr.split('\n').find((l) => l.startsWith('{'))!) as { error: { details: { matches: string[] } } };
    expect(json.error.details.matches.length).toBeGreaterThan(10);
  });

  it('nothing matching at all: the not-found error with the query to run, no placeholder', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'zzzz qqqq']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('No exercise has the id or name "zzzz qqqq".');
    expect(r.stderr).toContain('`exercises query --name "zzzz qqqq"`');
  });

  it('several texts: each resolved, in order; one naming several is reported and the rest printed', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'push_up', 'flat bench', 'bench press', '--format', 'jsonl']);
    expect(r.code).toBe(4);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
    ).toEqual(['Push_Up', 'Barbell_Bench_Press']);
    expect(r.stderr).toContain('Not found: bench press');
  });

  it('image and video resolve the same way before any request', async () => {
    const dir = tempDir('exercises-resolve-media-');
    try {
      const r = await runInProcess(['--sandbox', 'image', 'flat bench', 'start', '--dir', dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(dir, 'Barbell_Bench_Press', 'start.png'))).toBe(true);
      // An id in another case, too (show sends such a text as typed; image and video resolve it first).
      const cased = await runInProcess(['--sandbox', 'image', 'push_up', 'start', '--dir', dir]);
      expect(cased.code, cased.stderr).toBe(0);
      expect(existsSync(join(dir, 'Push_Up', 'start.png'))).toBe(true);
      const video = await runInProcess(['--sandbox', 'video', 'PUSH_UP', '--dir', dir]);
      expect(video.code, video.stderr).toBe(0);
      expect(existsSync(join(dir, 'Push_Up'))).toBe(true);
      const several = await runInProcess(['--sandbox', 'video', 'bench press', '--dir', dir]);
      expect(several.code).toBe(4);
      expect(several.stderr).toContain('is part of the names of 3 exercises');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('against the service', () => {
  let server: CatalogueServer;
  let home: string;
  beforeAll(async () => {
    server = await startServer();
    home = isolatedHome();
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });
  const env = () => serverEnv(server, { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), XDG_CONFIG_HOME: join(home, '.config') });
  const fresh = () => serverEnv(server);

  it('with nothing known, no request beyond the record one is spent; the hint offers --search', async () => {
    const before = server.requests.length;
    const r = await runInProcess(['show', 'bench pres'], { env: fresh() });
    expect(r.code).toBe(4);
    expect(server.requests.slice(before).map((q) => q.path)).toEqual([`/exercise/${encodeURIComponent('bench pres')}`]);
    expect(r.stderr).toContain('add --search to look it up by part of its name (one listing request)');
  });

  it('--search spends one listing request, says so, and shows the one it found', async () => {
    const before = server.requests.length;
    const r = await runInProcess(['show', 'paused bench', '--search', '--format', 'json'], { env: fresh() });
    expect(r.code, r.stderr).toBe(0);
    expect(firstId(r.stdout)).toBe('Paused_Bench_Press');
    expect(r.stderr).toContain('one listing request');
    const paths = server.requests.slice(before).map((q) => q.path);
    expect(paths.filter((p) => p.startsWith('/exercise/query'))).toHaveLength(1);
  });

  it('a name or alias with a space, known from an earlier answer in the cache, is sent as the real id: one request', async () => {
    const listed = await runInProcess(['query', '--muscle', 'chest', '--format', 'json'], { env: env() });
    expect(listed.code, listed.stderr).toBe(0);
    const before = server.requests.length;
    const r = await runInProcess(['show', 'flat bench', '--format', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(firstId(r.stdout)).toBe('Barbell_Bench_Press');
    expect(server.requests.slice(before).map((q) => q.path)).toEqual(['/exercise/Barbell_Bench_Press']);
  });

  it('an id-shaped text goes as typed (a cache hit loads nothing more); after a 404 the id in another case is found in the cache, no listing', async () => {
    await runInProcess(['query', '--muscle', 'chest', '--format', 'json'], { env: env() });
    const before = server.requests.length;
    const r = await runInProcess(['show', 'push_up', '--format', 'json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(firstId(r.stdout)).toBe('Push_Up');
    expect(server.requests.slice(before).map((q) => q.path)).toEqual(['/exercise/push_up', '/exercise/Push_Up']);
  });
});

describe('the query to run', () => {
  it('is quoted for a shell, never a placeholder', () => {
    expect(nameQuery('bench press')).toBe('exercises query --name "bench press"');
    expect(nameQuery('say "hi" $HOME')).toBe(`exercises query --name 'say "hi" $HOME'`);
    expect(nameQuery("it's $x")).toBe(`exercises query --name 'it'\\''s $x'`);
  });
});
