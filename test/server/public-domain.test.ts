/**
 * The server over the public-domain catalogue of 873 exercises, read in place from
 * ../shared/catalogues/public-domain when that folder exists (never copied into the project).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type CatalogueServer } from '../helpers/server.js';
import { getJson } from './support.js';

const DIR = fileURLToPath(new URL('../../../shared/catalogues/public-domain', import.meta.url));

describe.skipIf(!existsSync(DIR))('the public-domain catalogue', () => {
  let server: CatalogueServer;
  beforeAll(async () => {
    server = await startServer({ dir: DIR });
  });
  afterAll(() => server.close());

  it('lists 873 exercises and pages over all of them once', async () => {
    const first = await getJson(server, '/exercise/exerciseIds?limit=25');
    expect(first.pagination.total).toBe(873);
    const ids: string[] = [];
    let page = first;
    for (;;) {
      ids.push(...page.exercises.map((e: any) => e.id));
      if (!page.pagination.next) break;
      page = await getJson(server, `/exercise/exerciseIds?limit=25&after=${encodeURIComponent(page.pagination.next)}`);
    }
    expect(ids).toHaveLength(873);
    expect(new Set(ids).size).toBe(873);
  });

  it('pages a query by bare ids as well', async () => {
    const ids: string[] = [];
    let after = '';
    for (;;) {
      const page = await getJson(server, `/exercise/query?limit=25${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      ids.push(...page.exercises.map((e: any) => e.id));
      if (page.exercises.length < 25) break;
      after = page.exercises.at(-1).id;
    }
    expect(new Set(ids).size).toBe(873);
  });

  it('answers a known exercise by id and by its name with a slash', async () => {
    const byId = await getJson(server, '/exercise/3_4_Sit-Up');
    expect(byId).toMatchObject({ id: '3_4_Sit-Up', name: '3/4 Sit-Up', category: 'STRENGTH', primaryMuscle: ['ABDOMINALS'] });
    expect(await getJson(server, `/exercise/${encodeURIComponent('3/4 sit-up')}`)).toEqual(byId);
  });

  it('filters it', async () => {
    const page = await getJson(server, '/exercise/query?primaryMuscle=NECK&limit=25');
    expect(page.pagination.total).toBeGreaterThan(0);
    expect(page.pagination.total).toBeLessThan(873);
  });
});
