/** `show`: by id and by name (spaces, `/`), several at once in input order, ids from stdin, missing ones. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { CATALOGUE, jsonlIds, serverEnv } from '../helpers/fixtures.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const show = (args: string[], input?: string) => runInProcess(['show', ...args], { env: serverEnv(server), ...(input !== undefined ? { input } : {}) });

describe('show', () => {
  it('prints the full record as JSON, unknown fields and all', async () => {
    const r = await show(['Barbell_Bench_Press', '--format', 'json']);
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout);
    const expected = CATALOGUE.find((e) => e.id === 'Barbell_Bench_Press')!;
    expect(record.instructions).toEqual(expected.instructions);
    expect(record.primaryMuscle).toEqual(expected.primaryMuscle);
  });

  it('finds names with spaces and a slash (percent-encoded path segment)', async () => {
    const named = CATALOGUE.find((e) => e.name.includes('/'))!;
    const before = server.requests.length;
    const r = await show([named.name, 'Barbell Back Squat', '--format', 'jsonl']);
    expect(r.code).toBe(0);
    expect(jsonlIds(r.stdout)).toEqual([named.id, 'Barbell_Back_Squat']);
    const paths = server.requests.slice(before).map((q) => q.path);
    expect(paths).toContain(`/exercise/${encodeURIComponent(named.name)}`);
  });

  it('keeps input order for many ids fetched concurrently', async () => {
    const ids = CATALOGUE.map((e) => e.id)
      .reverse()
      .slice(0, 30);
    const r = await show([...ids, '--format', 'jsonl']);
    expect(r.code).toBe(0);
    expect(jsonlIds(r.stdout)).toEqual(ids);
  });

  it('reads ids from stdin: plain lines, JSON lines and our own tsv', async () => {
    const [a, b, c] = CATALOGUE.map((e) => e.id);
    const plain = await show(['-', '--format', 'jsonl'], `${a}\n\n${b}\n`);
    expect(jsonlIds(plain.stdout)).toEqual([a, b]);
    const jsonl = await show(['-', '--format', 'jsonl'], `{"id":"${c}","name":"x"}\n{"name":"${CATALOGUE[0]!.name}"}\n`);
    expect(jsonlIds(jsonl.stdout)).toEqual([c, a]);
    const listed = await runInProcess(['ids', '--limit', '3'], { env: serverEnv(server) });
    const piped = await show(['-', '--format', 'jsonl'], listed.stdout);
    expect(piped.code).toBe(0);
    expect(jsonlIds(piped.stdout)).toEqual(jsonlIds((await runInProcess(['ids', '--limit', '3', '--format', 'jsonl'], { env: serverEnv(server) })).stdout));
  });

  it('mixes arguments and stdin in order', async () => {
    const [a, b, c] = CATALOGUE.map((e) => e.id);
    const r = await show([a!, '-', c!, '--format', 'jsonl'], `${b}\n`);
    expect(jsonlIds(r.stdout)).toEqual([a, b, c]);
  });

  it('exits 4 after printing the ones it found', async () => {
    const [a, b] = CATALOGUE.map((e) => e.id);
    const r = await show([a!, 'Missing_One', b!, '--format', 'jsonl']);
    expect(r.code).toBe(4);
    expect(jsonlIds(r.stdout)).toEqual([a, b]);
    expect(r.stderr).toContain('Missing_One');
  });

  it('keeps JSON output well-formed when an error stops the run part-way', async () => {
    const failing = await startServer({
      intercept: (req, res) => {
        if (!req.url?.startsWith('/exercise/Plank')) return false;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"code":"internal","message":"boom"}}');
        return true;
      },
    });
    try {
      const r = await runInProcess(['show', 'Push_Up', 'Barbell_Bench_Press', 'Plank', 'Barbell_Back_Squat', '--format', 'json', '--retries', '0'], {
        env: serverEnv(failing),
      });
      expect(r.code).toBe(6);
      const printed = JSON.parse(r.stdout) as Array<{ id: string }>;
      expect(printed.map((e) => e.id)).toEqual(['Push_Up', 'Barbell_Bench_Press']);
    } finally {
      await failing.close();
    }
  });

  it('is a usage error with an empty stdin', async () => {
    const r = await show(['-'], '');
    expect(r.code).toBe(2);
  });

  it('asks in the requested language', async () => {
    const translated = CATALOGUE.find((e) => e.translations?.['de-DE']?.displayName)!;
    const r = await show([translated.id, '--lang', 'de-DE', '--format', 'json']);
    expect(JSON.parse(r.stdout).displayName).toBe(translated.translations!['de-DE']!.displayName);
  });

  it('prints a readable card with --format table', async () => {
    const r = await show(['Barbell_Bench_Press', '--format', 'table']);
    expect(r.stdout).toMatch(/Primary muscles: chest/);
    expect(r.stdout).toMatch(/^ {2}1\. /m);
    expect(r.stdout).toMatch(/Premium images: /);
  });
});
