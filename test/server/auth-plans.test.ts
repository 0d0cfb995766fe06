import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_KEY, startServer, type CatalogueServer } from '../helpers/server.js';
import { errorOf, get, getJson } from './support.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('API keys and plans', () => {
  const paths = ['/exercise/query', '/exercise/exerciseIds', '/exercise/Plank', '/images/Plank/premium/start.png', '/videos/Plank/premium/demo.mp4'];

  it.each(paths)('answers 401 with a JSON error when %s is asked without a key', async (path) => {
    const res = await get(server, path, { key: null });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(errorOf(res).code).toBe('unauthorized');
  });

  it.each(paths)('answers 401 to an unknown key on %s', async (path) => {
    const res = await get(server, path, { key: 'not-a-key' });
    expect(res.status).toBe(401);
    expect(errorOf(res).message).toMatch(/not valid/);
  });

  it('does not take an inherited object property for a key', async () => {
    expect((await get(server, '/exercise/Plank', { key: 'constructor' })).status).toBe(401);
    expect((await get(server, '/exercise/Plank', { key: '__proto__' })).status).toBe(401);
  });

  it('gives the free plan records and summaries without premium media', async () => {
    const record = await getJson(server, '/exercise/Plank', { key: FREE_KEY });
    expect(record.name).toBe('Plank');
    expect(record).not.toHaveProperty('premiumImages');
    expect(record).not.toHaveProperty('premiumVideos');
    const list = await getJson(server, '/exercise/query?name=plank&limit=25', { key: FREE_KEY });
    expect(list.exercises.length).toBeGreaterThan(0);
    for (const s of list.exercises) {
      expect(s).not.toHaveProperty('premiumImages');
      expect(s).not.toHaveProperty('premiumVideos');
    }
    const ids = await getJson(server, '/exercise/exerciseIds?limit=25', { key: FREE_KEY });
    for (const s of ids.exercises) expect(s).not.toHaveProperty('premiumImages');
  });

  it('answers 403 to the free plan on media', async () => {
    for (const path of ['/images/Plank/premium/start.png', '/videos/Plank/premium/demo.mp4']) {
      const res = await get(server, path, { key: FREE_KEY });
      expect(res.status).toBe(403);
      expect(errorOf(res).code).toBe('forbidden');
    }
  });

  it('gives the premium plan the media lists and the files', async () => {
    const record = await getJson(server, '/exercise/Plank');
    expect(record.premiumImages).toEqual(['start', 'end']);
    expect(record.premiumVideos).toEqual(['demo']);
    const list = await getJson(server, '/exercise/query?name=plank');
    expect(list.exercises.find((s: any) => s.id === 'Plank').premiumImages).toEqual(['start', 'end']);
    expect((await get(server, '/images/Plank/premium/end.png')).status).toBe(200);
  });

  it('accepts only the keys it was given', async () => {
    const custom = await startServer({ keys: { 'team-key': 'premium', 'guest-key': 'free' } });
    try {
      expect((await get(custom, '/exercise/Plank', { key: 'sandbox-premium' })).status).toBe(401);
      expect((await get(custom, '/exercise/Plank', { key: 'team-key' })).json().premiumImages).toEqual(['start', 'end']);
      expect((await get(custom, '/exercise/Plank', { key: 'guest-key' })).json()).not.toHaveProperty('premiumImages');
    } finally {
      await custom.close();
    }
  });

  it('records whether a key was sent, never its value', async () => {
    const before = server.requests.length;
    await get(server, '/exercise/Plank', { key: null });
    await get(server, '/exercise/Plank');
    const [withoutKey, withKey] = server.requests.slice(before);
    expect(withoutKey).toMatchObject({ method: 'GET', path: '/exercise/Plank', status: 401, hadKey: false });
    expect(withKey).toMatchObject({ status: 200, hadKey: true });
    expect(JSON.stringify(server.requests)).not.toContain('sandbox-premium');
  });
});
