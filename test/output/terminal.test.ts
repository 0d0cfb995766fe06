/**
 * The terminal experience of issue 11, in-process: format flags checked together, `--json
 * <fields>` for every list and record command (checked before any request), list tables through
 * the pager on a terminal only, and --sandbox refusing a second source of answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

describe('format flags', () => {
  it.each([['table'], ['csv'], ['tsv']])('--json with --format %s is a usage error, before any request', async (format) => {
    const r = await runInProcess(['ids', '--json', '--format', format], { env: serverEnv(server) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--json and --format/);
    expect(server.requests).toHaveLength(0);
  });

  it('--json with --format jsonl is jsonl', async () => {
    const r = await runInProcess(['ids', '--limit', '2', '--json', 'id', '--format', 'jsonl'], { env: serverEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(Object.keys(l)).toEqual(['id']);
  });
});

describe('--json <fields>', () => {
  it.each([
    ['ids', ['ids', '--limit', '3']],
    ['query', ['query', '--muscle', 'chest', '--limit', '3']],
  ])('%s keeps only the fields asked for, in that order', async (_name, args) => {
    const r = await runInProcess([...args, '--json', 'name,id'], { env: serverEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.exercises.length).toBeGreaterThan(0);
    for (const e of body.exercises) expect(Object.keys(e)).toEqual(['name', 'id']);
  });

  it('show keeps only the record fields asked for', async () => {
    const r = await runInProcess(['show', 'Plank', '--json', 'id,level'], { env: serverEnv(server) });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['id', 'level']);
  });

  it.each([['ids'], ['query'], ['show', 'Plank']])(
    '%s: an unknown field is a usage error listing the valid ones, with no request and no key needed',
    async (...args) => {
      const r = await runInProcess([...args, '--json', 'id,nope'], { env: { EXERCISES_BASE_URL: server.url } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/Unknown field for --json: "nope"/);
      expect(r.stderr).toMatch(/Valid fields: id, name/);
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe('the pager', () => {
  /** A pager that copies what it is given into a file, so the test can read what was paged. */
  const pagerInto = (file: string) => ({ EXERCISES_PAGER: `cat > '${file}'`, NO_COLOR: '1' });

  it.each([[40], [100]])('a list table on a terminal (%i columns) goes through EXERCISES_PAGER', async (columns) => {
    const file = join(tempDir('pager-'), 'paged.txt');
    const r = await runInProcess(['ids', '--limit', '5'], { env: serverEnv(server, pagerInto(file)), stdoutIsTTY: true, columns });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const paged = readFileSync(file, 'utf8');
    expect(paged.split('\n')[0]).toMatch(/^ID\s+NAME/i);
    expect(paged).toMatch(/1–5 of \d+/);
  });

  it('--no-pager writes the table directly; a pipe never pages', async () => {
    const file = join(tempDir('pager-'), 'paged.txt');
    const direct = await runInProcess(['--no-pager', 'ids', '--limit', '5'], { env: serverEnv(server, pagerInto(file)), stdoutIsTTY: true, columns: 80 });
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout.split('\n')[0]).toMatch(/^ID\s+NAME/i);
    const piped = await runInProcess(['ids', '--limit', '5'], { env: serverEnv(server, pagerInto(file)) });
    expect(piped.stdout.trim().split('\n')).toHaveLength(5);
    expect(() => readFileSync(file)).toThrow();
  });
});

describe('--sandbox and another source', () => {
  it.each([
    [['--sandbox', '--base-url', 'http://127.0.0.1:9', 'ids'], '--base-url'],
    [['--sandbox', '--catalogue', '/nonexistent', 'ids'], '--catalogue'],
  ])('%j is a usage error', async (args, flag) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--sandbox and ${flag}`);
  });
});
