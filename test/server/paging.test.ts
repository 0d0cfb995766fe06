import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type CatalogueServer } from '../helpers/server.js';
import { errorOf, get, getJson } from './support.js';

let withCursors: CatalogueServer;
let withoutCursors: CatalogueServer;
beforeAll(async () => {
  [withCursors, withoutCursors] = await Promise.all([startServer(), startServer({ cursors: false })]);
});
afterAll(() => Promise.all([withCursors.close(), withoutCursors.close()]));

const sep = (path: string) => (path.includes('?') ? '&' : '?');

/** Forward with the server's `next` cursors, then back from the last page with `prev`. */
async function walkWithCursors(path: string, limit: number): Promise<{ forward: string[]; backward: string[]; total: number }> {
  const forward: string[] = [];
  let page = await getJson(withCursors, `${path}${sep(path)}limit=${limit}`);
  const total = page.pagination.total;
  expect(page.pagination.prev).toBeNull();
  for (;;) {
    expect(page.exercises.length).toBeLessThanOrEqual(limit);
    forward.push(...page.exercises.map((e: any) => e.id));
    if (page.pagination.next === null) break;
    expect(page.exercises).toHaveLength(limit);
    page = await getJson(withCursors, `${path}${sep(path)}limit=${limit}&after=${encodeURIComponent(page.pagination.next)}`);
  }
  const pages: string[][] = [page.exercises.map((e: any) => e.id)];
  while (page.pagination.prev !== null) {
    page = await getJson(withCursors, `${path}${sep(path)}limit=${limit}&before=${encodeURIComponent(page.pagination.prev)}`);
    expect(page.exercises).toHaveLength(limit);
    pages.unshift(page.exercises.map((e: any) => e.id));
  }
  expect(page.pagination.next === null).toBe(total <= limit);
  return { forward, backward: pages.flat(), total };
}

/** The client's fallback when a service sends no cursors: the last id as `after`, the first as `before`. */
async function walkWithIds(path: string, limit: number): Promise<{ forward: string[]; backward: string[]; total: number }> {
  const forward: string[] = [];
  let page = await getJson(withoutCursors, `${path}${sep(path)}limit=${limit}`);
  const total = page.pagination.total;
  for (;;) {
    expect(Object.keys(page.pagination)).toEqual(['total']);
    forward.push(...page.exercises.map((e: any) => e.id));
    if (page.exercises.length < limit || forward.length >= total) break;
    page = await getJson(withoutCursors, `${path}${sep(path)}limit=${limit}&after=${page.exercises.at(-1).id}`);
  }
  const last = page.exercises.length > 0 ? page : undefined;
  const pages: string[][] = last ? [last.exercises.map((e: any) => e.id)] : [];
  let first = last?.exercises[0]?.id;
  while (first) {
    page = await getJson(withoutCursors, `${path}${sep(path)}limit=${limit}&before=${first}`);
    if (page.exercises.length === 0) break;
    pages.unshift(page.exercises.map((e: any) => e.id));
    first = page.exercises.length < limit ? undefined : page.exercises[0].id;
  }
  return { forward, backward: pages.flat(), total };
}

describe.each([
  ['/exercise/exerciseIds', 'all exercise ids'],
  ['/exercise/query', 'an unfiltered query'],
  ['/exercise/query?category=STRENGTH,STRETCHING&level=BEGINNER', 'a filtered query'],
])('paging %s (%s)', (path) => {
  it.each([1, 7, 25])('walks with server cursors, limit %i, both ways, no gap, no repeat', async (limit) => {
    const { forward, backward, total } = await walkWithCursors(path, limit);
    expect(forward).toHaveLength(total);
    expect(new Set(forward).size).toBe(total);
    expect(backward).toEqual(forward);
  });

  it.each([1, 7, 25])('walks with bare ids when the server sends no cursors, limit %i, both ways', async (limit) => {
    const { forward, backward, total } = await walkWithIds(path, limit);
    expect(forward).toHaveLength(total);
    expect(new Set(forward).size).toBe(total);
    expect(backward).toEqual(forward);
    const viaCursors = await walkWithCursors(path, 25);
    expect(forward).toEqual(viaCursors.forward);
  });
});

describe('paging rules', () => {
  it('orders by name case-insensitively, then id', async () => {
    const { forward } = await walkWithCursors('/exercise/exerciseIds', 25);
    const names: string[] = [];
    let page = await getJson(withCursors, '/exercise/exerciseIds?limit=25');
    for (;;) {
      names.push(...page.exercises.map((e: any) => e.name.toLowerCase()));
      if (!page.pagination.next) break;
      page = await getJson(withCursors, `/exercise/exerciseIds?limit=25&after=${page.pagination.next}`);
    }
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(forward[0]).toBe('90_90_Hip_Switch');
  });

  it('defaults to 10 per page and sends opaque cursors that are not ids', async () => {
    const page = await getJson(withCursors, '/exercise/exerciseIds');
    expect(page.exercises).toHaveLength(10);
    expect(page.pagination.prev).toBeNull();
    expect(typeof page.pagination.next).toBe('string');
    expect(page.pagination.next).not.toBe(page.exercises[9].id);
  });

  it('answers the page just before a before cursor', async () => {
    const all = (await walkWithCursors('/exercise/exerciseIds', 25)).forward;
    const page = await getJson(withCursors, `/exercise/exerciseIds?limit=5&before=${all[20]}`);
    expect(page.exercises.map((e: any) => e.id)).toEqual(all.slice(15, 20));
    const start = await getJson(withCursors, `/exercise/exerciseIds?limit=5&before=${all[3]}`);
    expect(start.exercises.map((e: any) => e.id)).toEqual(all.slice(0, 3));
    expect(start.pagination.prev).toBeNull();
    expect(typeof start.pagination.next).toBe('string');
    const empty = await getJson(withCursors, `/exercise/exerciseIds?limit=5&before=${all[0]}`);
    expect(empty.exercises).toEqual([]);
  });

  it('answers an empty last page after the last exercise', async () => {
    const all = (await walkWithCursors('/exercise/exerciseIds', 25)).forward;
    const page = await getJson(withCursors, `/exercise/exerciseIds?after=${all.at(-1)}`);
    expect(page).toEqual({ exercises: [], pagination: { total: all.length, next: null, prev: null } });
  });

  it('places an id from outside the filtered set by the listing order', async () => {
    // Plank is not a STRETCHING exercise, yet `after=Plank` lists the stretches sorting after it.
    const stretches = (await walkWithCursors('/exercise/query?category=STRETCHING', 25)).forward;
    const page = await getJson(withCursors, '/exercise/query?category=STRETCHING&limit=25&after=Plank');
    const names = page.exercises.map((e: any) => e.name.toLowerCase());
    expect(names.every((n: string) => n > 'plank')).toBe(true);
    expect(page.exercises.map((e: any) => e.id)).toEqual(stretches.slice(stretches.length - page.exercises.length));
  });

  it.each(['0', '26', '-1', '2.5', 'ten', '', '1e1', '99999999999999999999'])('answers 400 naming limit for limit=%s', async (limit) => {
    for (const path of ['/exercise/query', '/exercise/exerciseIds']) {
      const res = await get(withCursors, `${path}?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'bad_request', parameter: 'limit' });
    }
  });

  it('accepts the limits 1 and 25', async () => {
    expect((await getJson(withCursors, '/exercise/query?limit=1')).exercises).toHaveLength(1);
    expect((await getJson(withCursors, '/exercise/exerciseIds?limit=25')).exercises).toHaveLength(25);
  });

  it('answers 400 to after with before', async () => {
    const res = await get(withCursors, '/exercise/exerciseIds?after=Plank&before=Push_Up');
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/after or before/);
  });

  it.each(['after', 'before'])('answers 400 naming %s for an unknown cursor', async (param) => {
    for (const value of ['No_Such_Exercise', 'YzE6Tm9wZQ', '%FF', 'x'.repeat(3000)]) {
      for (const path of ['/exercise/query', '/exercise/exerciseIds']) {
        const res = await get(withCursors, `${path}?${param}=${value}`);
        expect(res.status, value).toBe(400);
        expect(errorOf(res).parameter).toBe(param);
      }
    }
  });

  it('accepts its own cursors on the server without cursors too (they name an exercise)', async () => {
    const page = await getJson(withCursors, '/exercise/exerciseIds?limit=3');
    const next = await getJson(withoutCursors, `/exercise/exerciseIds?limit=3&after=${page.pagination.next}`);
    const byId = await getJson(withoutCursors, `/exercise/exerciseIds?limit=3&after=${page.exercises[2].id}`);
    expect(next).toEqual(byId);
  });
});
