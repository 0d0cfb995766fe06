import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type CatalogueServer } from '../helpers/server.js';
import { errorOf, get, getJson } from './support.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('GET /exercise/{exerciseId}', () => {
  it('answers the full record by id', async () => {
    const record = await getJson(server, '/exercise/Barbell_Bench_Press');
    expect(record).toMatchObject({
      id: 'Barbell_Bench_Press',
      name: 'Barbell Bench Press',
      displayName: 'Barbell Bench Press',
      aliases: ['Flat Bench'],
      category: 'STRENGTH',
      primaryMuscle: ['CHEST'],
      secondaryMuscle: ['TRICEPS', 'SHOULDERS'],
      force: 'PUSH',
      level: 'INTERMEDIATE',
      mechanic: 'COMPOUND',
      equipment: 'BARBELL',
      premiumImages: ['start', 'end'],
      premiumVideos: ['demo'],
    });
    expect(record.instructions.length).toBeGreaterThan(1);
    expect(record).not.toHaveProperty('translations');
  });

  it('keeps null fields null', async () => {
    const record = await getJson(server, '/exercise/Cat_Cow_Stretch');
    expect(record).toMatchObject({ force: null, level: null, mechanic: null, equipment: null });
  });

  it('answers by exact name, case-insensitively', async () => {
    const byId = await getJson(server, '/exercise/Barbell_Bench_Press');
    expect(await getJson(server, '/exercise/Barbell%20Bench%20Press')).toEqual(byId);
    expect(await getJson(server, '/exercise/barbell%20BENCH%20press')).toEqual(byId);
    expect((await get(server, '/exercise/Barbell%20Bench')).status).toBe(404);
  });

  it('answers by a name holding a percent-encoded slash', async () => {
    const record = await getJson(server, '/exercise/90%2F90%20Hip%20Switch');
    expect(record.id).toBe('90_90_Hip_Switch');
    expect((await getJson(server, '/exercise/90%2f90%20hip%20switch')).id).toBe('90_90_Hip_Switch');
    // A raw slash makes two segments: not an exercise path.
    expect((await get(server, '/exercise/90/90%20Hip%20Switch')).status).toBe(404);
  });

  it('answers by a name with non-ASCII letters and an apostrophe', async () => {
    expect((await getJson(server, `/exercise/${encodeURIComponent('Développé Couché Serré')}`)).id).toBe('Developpe_Couche_Serre');
    expect((await getJson(server, `/exercise/${encodeURIComponent("farmer's walk")}`)).id).toBe('Farmer_s_Walk');
  });

  it('translates with lang', async () => {
    const record = await getJson(server, '/exercise/90%2F90%20Hip%20Switch?lang=es-ES');
    expect(record.displayName).toBe('Cambio de cadera 90/90');
    expect(record.name).toBe('90/90 Hip Switch');
  });

  it('says in Content-Language which language it answered in, English when it has no such translation', async () => {
    const language = async (path: string) => (await get(server, path)).headers['content-language'];
    expect(await language('/exercise/90%2F90%20Hip%20Switch?lang=es-ES')).toBe('es-ES');
    expect(await language('/exercise/90%2F90%20Hip%20Switch?lang=es')).toBe('es-ES');
    expect(await language('/exercise/90%2F90%20Hip%20Switch?lang=fr-FR')).toBe('en-GB');
    expect(await language('/exercise/90%2F90%20Hip%20Switch')).toBe('en-GB');
    // A list is in a language when the catalogue has it at all; untranslated fields fall back field by field.
    expect(await language('/exercise/query?lang=de-DE')).toBe('de-DE');
    expect(await language('/exercise/exerciseIds?lang=fr-FR')).toBe('en-GB');
    expect(await language('/exercise/exerciseIds?lang=EN-us')).toBe('en-GB');
  });

  it('answers 404 with a JSON error for an unknown exercise', async () => {
    for (const path of ['/exercise/No_Such_Exercise', '/exercise/', '/exercise/..', '/exercise/%2E%2E%2Fsample', '/exercise/Plank/extra']) {
      const res = await get(server, path);
      expect(res.status, path).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
  });

  it('answers 404 for paths outside the interface', async () => {
    for (const path of ['/', '/exercises', '/exercise', '/images/Plank', '/images/Plank/free/start.png', '/exercise/query/extra']) {
      expect((await get(server, path)).status, path).toBe(404);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(server, '/exercise/Plank', { method: 'HEAD' });
    const full = await get(server, '/exercise/Plank');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(full.body.length));
    expect(head.headers['content-type']).toMatch(/^application\/json/);
  });
});
