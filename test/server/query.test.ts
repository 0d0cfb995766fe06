import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENUMS } from '../../src/catalogue/enums.js';

const { Muscle: MUSCLES, Category: CATEGORIES, Force: FORCES, Level: LEVELS, Mechanic: MECHANICS, Equipment: EQUIPMENT } = ENUMS;
import type { CatalogueEntry } from '../../src/catalogue/types.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { startServer, type CatalogueServer } from '../helpers/server.js';
import { errorOf, get, getJson } from './support.js';

const SAMPLE: CatalogueEntry[] = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Every id the query matches, following the server's own cursors. */
async function allIds(query: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const page: any = await getJson(server, `/exercise/query?limit=25${query ? `&${query}` : ''}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    ids.push(...page.exercises.map((e: any) => e.id));
    after = page.pagination.next;
    if (!after) return ids;
  }
  throw new Error('paging did not end');
}

const idsWhere = (pred: (e: CatalogueEntry) => boolean) =>
  SAMPLE.filter(pred)
    .map((e) => e.id)
    .sort();

describe('the sample catalogue', () => {
  it('has at least 60 exercises and every value of every enum', () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(60);
    const used = (field: keyof CatalogueEntry) => new Set(SAMPLE.flatMap((e) => [e[field]].flat()));
    for (const m of MUSCLES) expect(new Set([...used('primaryMuscle'), ...used('secondaryMuscle')])).toContain(m);
    for (const c of CATEGORIES) expect(used('category')).toContain(c);
    for (const f of FORCES) expect(used('force')).toContain(f);
    for (const l of LEVELS) expect(used('level')).toContain(l);
    for (const m of MECHANICS) expect(used('mechanic')).toContain(m);
    for (const q of EQUIPMENT) expect(used('equipment')).toContain(q);
    for (const field of ['force', 'level', 'mechanic', 'equipment'] as const) expect(used(field)).toContain(null);
    expect(SAMPLE.some((e) => e.name.includes('/'))).toBe(true);
    expect(SAMPLE.some((e) => /[^\x00-\x7f]/.test(e.name))).toBe(true);
    expect(SAMPLE.filter((e) => e.translations?.['de-DE'] && e.translations['es-ES']).length).toBeGreaterThanOrEqual(12);
    expect(SAMPLE.filter((e) => e.premiumImages?.length && e.premiumVideos?.length).length).toBeGreaterThanOrEqual(12);
  });
});

describe('GET /exercise/query filters', () => {
  it('lists everything without filters, with the total', async () => {
    const page = await getJson(server, '/exercise/query');
    expect(page.pagination.total).toBe(SAMPLE.length);
    expect(page.exercises).toHaveLength(10);
    for (const s of page.exercises) expect(Object.keys(s)).toEqual(expect.arrayContaining(['id', 'name', 'displayName', 'aliases']));
  });

  const single: Array<[string, readonly string[], keyof CatalogueEntry]> = [
    ['primaryMuscle', MUSCLES, 'primaryMuscle'],
    ['secondaryMuscle', MUSCLES, 'secondaryMuscle'],
    ['category', CATEGORIES, 'category'],
    ['force', FORCES, 'force'],
    ['level', LEVELS, 'level'],
    ['mechanic', MECHANICS, 'mechanic'],
    ['equipment', EQUIPMENT, 'equipment'],
  ];
  it.each(single)('filters by every value of %s', async (param, values, field) => {
    for (const value of values) {
      const expected = idsWhere((e) => [e[field]].flat().includes(value));
      expect((await allIds(`${param}=${value}`)).sort(), `${param}=${value}`).toEqual(expected);
    }
  });

  it('ORs the values of one filter, given as repeated keys or as a comma list', async () => {
    const expected = idsWhere((e) => e.category === 'CARDIO' || e.category === 'STRONGMAN');
    expect(expected.length).toBeGreaterThan(3);
    expect((await allIds('category=CARDIO&category=STRONGMAN')).sort()).toEqual(expected);
    expect((await allIds('category=CARDIO,STRONGMAN')).sort()).toEqual(expected);
    expect((await allIds('category=CARDIO,&category=STRONGMAN')).sort()).toEqual(expected);
    const muscles = idsWhere((e) => e.primaryMuscle!.includes('NECK') || e.primaryMuscle!.includes('CALVES'));
    expect((await allIds('primaryMuscle=NECK,CALVES')).sort()).toEqual(muscles);
  });

  it('ANDs different filters', async () => {
    const expected = idsWhere((e) => e.equipment === 'BARBELL' && (e.level === 'EXPERT' || e.level === 'BEGINNER') && e.mechanic === 'COMPOUND');
    expect(expected.length).toBeGreaterThan(0);
    expect((await allIds('equipment=BARBELL&level=EXPERT&level=BEGINNER&mechanic=COMPOUND')).sort()).toEqual(expected);
    const none = await getJson(server, '/exercise/query?category=STRETCHING&equipment=BARBELL');
    expect(none).toEqual({ exercises: [], pagination: { total: 0, next: null, prev: null } });
  });

  it('matches name as a case-insensitive substring', async () => {
    expect((await allIds('name=BENCH%20press')).sort()).toEqual(['Barbell_Bench_Press', 'Paused_Bench_Press']);
    expect(await allIds('name=squat')).toEqual(expect.arrayContaining(['Barbell_Back_Squat', 'Goblet_Squat']));
  });

  it('matches names accent-insensitively both ways', async () => {
    expect(await allIds('name=developpe%20couche')).toEqual(['Developpe_Couche_Serre']);
    expect(await allIds(`name=${encodeURIComponent('DÉVELOPPÉ')}`)).toEqual(['Developpe_Couche_Serre']);
    // The same letters, decomposed (e + combining acute accent).
    expect(await allIds(`name=${encodeURIComponent('De\u0301veloppe\u0301')}`)).toEqual(['Developpe_Couche_Serre']);
  });

  it('matches name against names holding a slash', async () => {
    expect(await allIds('name=90%2F90')).toEqual(['90_90_Hip_Switch']);
  });

  it('matches alias as a case-insensitive substring of any alias', async () => {
    expect(await allIds('alias=skull')).toEqual(['Lying_Triceps_Extension']);
    expect((await allIds('alias=CARRY')).sort()).toEqual(['Farmer_s_Walk']);
    expect(await allIds('alias=no-such-alias')).toEqual([]);
  });

  it('combines name and alias with the enum filters', async () => {
    expect(await allIds('name=plank&equipment=BODY_ONLY&force=STATIC&level=EXPERT')).toEqual(['Copenhagen_Plank']);
    expect(await allIds('name=plank&alias=forearm')).toEqual(['Plank']);
  });

  it('treats an empty filter as no filter and ignores unknown parameters', async () => {
    expect((await getJson(server, '/exercise/query?category=&name=&colour=blue')).pagination.total).toBe(SAMPLE.length);
  });

  it.each([
    ['primaryMuscle', 'BICEP'],
    ['secondaryMuscle', 'chest'],
    ['category', 'YOGA'],
    ['force', 'PUSH,SHOVE'],
    ['level', 'MASTER'],
    ['mechanic', 'HYBRID'],
    ['equipment', 'EZ_CURL_BAR'],
  ])('answers 400 naming %s for the unknown value %s', async (param, value) => {
    const res = await get(server, `/exercise/query?${param}=${value}`);
    expect(res.status).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('bad_request');
    expect(error.parameter).toBe(param);
    expect(error.message).toContain(param);
  });

  it('answers 400 when a single-valued parameter is repeated', async () => {
    const res = await get(server, '/exercise/query?name=a&name=b');
    expect(res.status).toBe(400);
    expect(errorOf(res).parameter).toBe('name');
  });
});

describe('languages', () => {
  it('translates displayName, aliases and instructions with lang, keeping name in English', async () => {
    const de = await getJson(server, '/exercise/Barbell_Bench_Press?lang=de-DE');
    expect(de.name).toBe('Barbell Bench Press');
    expect(de.displayName).toBe('Bankdrücken mit der Langhantel');
    expect(de.aliases).toEqual(['Flachbank']);
    expect(de.instructions[0]).toMatch(/^Lege dich/);
    expect(de).not.toHaveProperty('translations');
    const es = await getJson(server, '/exercise/Barbell_Bench_Press?lang=es-ES');
    expect(es.displayName).toBe('Press de banca con barra');
    expect(es.instructions[0]).toMatch(/^Túmbate/);
  });

  it('translates list summaries too', async () => {
    // searchlang defaults to lang, so an English search in a Spanish answer names searchlang.
    // (Paused Bench Press has no Spanish text, so it still matches in English.)
    const spanish = await getJson(server, '/exercise/query?name=bench%20press&lang=es-ES');
    expect(spanish.exercises.map((e: any) => e.id)).toEqual(['Paused_Bench_Press']);
    const page = await getJson(server, '/exercise/query?name=bench%20press&lang=es-ES&searchlang=en-GB');
    expect(page.exercises.find((e: any) => e.id === 'Barbell_Bench_Press')).toMatchObject({
      name: 'Barbell Bench Press',
      displayName: 'Press de banca con barra',
      aliases: ['Banca plana'],
    });
    const ids = await getJson(server, '/exercise/exerciseIds?lang=de-DE&limit=25&after=Pull_Up');
    expect(ids.exercises.find((e: any) => e.id === 'Push_Up')).toMatchObject({ displayName: 'Liegestütz' });
  });

  it('falls back to English per exercise and for unknown languages', async () => {
    const untranslated = await getJson(server, '/exercise/Face_Pull?lang=de-DE');
    expect(untranslated.displayName).toBe('Face Pull');
    const english = await getJson(server, '/exercise/Barbell_Bench_Press');
    for (const lang of ['xx-YY', 'en-GB', 'en-US', '']) {
      const other = await getJson(server, `/exercise/Barbell_Bench_Press?lang=${lang}`);
      expect(other, lang).toEqual(english);
    }
  });

  it('finds a language by any case and by its primary tag', async () => {
    expect((await getJson(server, '/exercise/Push_Up?lang=de-de')).displayName).toBe('Liegestütz');
    expect((await getJson(server, '/exercise/Push_Up?lang=de')).displayName).toBe('Liegestütz');
    expect((await getJson(server, '/exercise/Push_Up?lang=es-MX')).displayName).toBe('Flexión de brazos');
  });

  it('searches in the searchlang language, defaulting to lang', async () => {
    expect(await allIds(`searchlang=de-DE&name=${encodeURIComponent('Bankdrücken')}`)).toEqual(['Barbell_Bench_Press']);
    expect(await allIds(`lang=de-DE&name=bankdrucken`)).toEqual(['Barbell_Bench_Press']);
    expect(await allIds(`name=bankdrucken`)).toEqual([]);
    // The German word is not searched in Spanish.
    expect(await allIds(`searchlang=es-ES&name=bankdrucken`)).toEqual([]);
    expect(await allIds(`searchlang=es-ES&name=sentadilla`)).toEqual(['Barbell_Back_Squat']);
    expect(await allIds(`searchlang=es-ES&alias=lagartija`)).toEqual(['Push_Up']);
    expect(await allIds(`lang=de-DE&alias=planke`)).toEqual(['Plank']);
  });

  it('answers in lang while searching in searchlang', async () => {
    const page = await getJson(server, `/exercise/query?searchlang=de-DE&name=klimmzug&lang=es-ES`);
    expect(page.exercises.map((e: any) => [e.id, e.displayName])).toEqual([['Pull_Up', 'Dominada']]);
  });

  it('still finds untranslated exercises by their English names in another searchlang', async () => {
    expect(await allIds('searchlang=de-DE&name=face%20pull')).toEqual(['Face_Pull']);
  });
});
