/**
 * `query` and `ids` against the project's server over the sample catalogue: every filter and
 * some combinations checked against the catalogue itself, and flag validation before any request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { CATALOGUE, jsonlIds, serverEnv, sortedIds } from '../helpers/fixtures.js';
import type { CatalogueEntry } from '../../src/catalogue/types.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function queryIds(args: string[]): Promise<string[]> {
  const r = await runInProcess(['query', ...args, '--all', '--format', 'jsonl'], { env: serverEnv(server) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return jsonlIds(r.stdout).sort();
}

const has = (value: unknown, wanted: string[]): boolean => [value].flat().some((v) => wanted.includes(v as string));
const where = (pred: (e: CatalogueEntry) => boolean): string[] => sortedIds(CATALOGUE.filter(pred));

describe('query filters, checked against the catalogue', () => {
  const cases: Array<[string, string[], (e: CatalogueEntry) => boolean]> = [
    ['--muscle', ['--muscle', 'chest'], (e) => has(e.primaryMuscle, ['CHEST'])],
    ['--primary-muscle (friendly spelling)', ['--primary-muscle', 'lower back'], (e) => has(e.primaryMuscle, ['LOWER_BACK'])],
    ['--secondary-muscle', ['--secondary-muscle', 'Glutes'], (e) => has(e.secondaryMuscle, ['GLUTES'])],
    ['--category', ['--category', 'stretching'], (e) => e.category === 'STRETCHING'],
    ['--category comma list', ['--category', 'cardio,plyometrics'], (e) => has(e.category, ['CARDIO', 'PLYOMETRICS'])],
    ['--category repeated', ['--category', 'strongman', '--category', 'olympic weightlifting'], (e) => has(e.category, ['STRONGMAN', 'OLYMPIC_WEIGHTLIFTING'])],
    ['--force', ['--force', 'static'], (e) => e.force === 'STATIC'],
    ['--level', ['--level', 'expert,beginner'], (e) => has(e.level, ['EXPERT', 'BEGINNER'])],
    ['--mechanic', ['--mechanic', 'isolation'], (e) => e.mechanic === 'ISOLATION'],
    ['--equipment', ['--equipment', 'ez curl bar', '--equipment', 'kettlebells'], (e) => has(e.equipment, ['E_Z_CURL_BAR', 'KETTLEBELLS'])],
    ['--name', ['--name', 'PRESS'], (e) => [e.name, e.displayName].some((n) => n?.toLowerCase().includes('press'))],
    ['--alias', ['--alias', 'bench'], (e) => (e.aliases ?? []).some((a) => a.toLowerCase().includes('bench'))],
    [
      'combination',
      ['--muscle', 'quadriceps', '--equipment', 'barbell,body-only', '--level', 'beginner,intermediate'],
      (e) => has(e.primaryMuscle, ['QUADRICEPS']) && has(e.equipment, ['BARBELL', 'BODY_ONLY']) && has(e.level, ['BEGINNER', 'INTERMEDIATE']),
    ],
    [
      'muscle with secondary muscle and force',
      ['--muscle', 'chest', '--secondary-muscle', 'triceps', '--force', 'push'],
      (e) => has(e.primaryMuscle, ['CHEST']) && has(e.secondaryMuscle, ['TRICEPS']) && e.force === 'PUSH',
    ],
  ];

  for (const [title, args, pred] of cases) {
    it(title, async () => {
      const expected = where(pred);
      expect(expected.length).toBeGreaterThan(0);
      expect(await queryIds(args)).toEqual(expected);
    });
  }

  it('sends array filters as repeated keys', async () => {
    const before = server.requests.length;
    await queryIds(['--category', 'cardio,plyometrics']);
    const sent = server.requests.slice(before).find((r) => r.path === '/exercise/query')!;
    expect(new URLSearchParams(sent.query).getAll('category')).toEqual(['CARDIO', 'PLYOMETRICS']);
  });

  it('searches in another language with --searchlang', async () => {
    const translated = CATALOGUE.find((e) => e.translations?.['de-DE']?.displayName);
    expect(translated).toBeDefined();
    const word = translated!.translations!['de-DE']!.displayName!.split(' ')[0]!;
    const ids = await queryIds(['--name', word, '--searchlang', 'de-DE']);
    expect(ids).toContain(translated!.id);
  });
});

describe('flags are checked before any request', () => {
  const bad: Array<[string, string[], RegExp]> = [
    ['unknown enum value', ['query', '--muscle', 'chesst'], /Did you mean chest/],
    ['second primary muscle', ['query', '--muscle', 'chest,biceps'], /one value/],
    ['--muscle with a different --primary-muscle', ['query', '--muscle', 'chest', '--primary-muscle', 'lats'], /one value/],
    ['limit 0', ['query', '--limit', '0'], /--limit/],
    ['limit 26', ['ids', '--limit', '26'], /--limit/],
    ['limit not a number', ['query', '--limit', 'ten'], /--limit/],
    ['after and before', ['ids', '--after', 'a', '--before', 'b'], /--after and --before/],
    ['bad searchlang', ['query', '--name', 'x', '--searchlang', 'no such'], /language tag/],
    ['unknown flag', ['query', '--colour', 'red'], /exercises query has no --colour flag\./],
  ];
  for (const [title, args, message] of bad) {
    it(`${title} → exit 2`, async () => {
      const before = server.requests.length;
      const r = await runInProcess(args, { env: serverEnv(server) });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      expect(server.requests.length).toBe(before);
    });
  }
});

describe('ids', () => {
  it('lists one page of the requested size, with lang passed through', async () => {
    const before = server.requests.length;
    const r = await runInProcess(['ids', '--limit', '7', '--lang', 'de-DE', '--format', 'jsonl'], { env: serverEnv(server) });
    expect(r.code).toBe(0);
    expect(jsonlIds(r.stdout)).toHaveLength(7);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(new URLSearchParams(sent[0]!.query).get('lang')).toBe('de-DE');
    expect(new URLSearchParams(sent[0]!.query).get('limit')).toBe('7');
  });
});
