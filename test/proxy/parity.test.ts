/**
 * A proxy answers exactly as its upstream: the same bodies for a sample of queries, every ids
 * page, records in two languages, and media bytes; and a catalogue directory in front answers
 * what it holds, the upstream only the rest.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { ALICE, type ProxyFixture, UPSTREAM_KEY, startProxy } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

let f: ProxyFixture;
beforeAll(async () => {
  f = await startProxy();
});
afterAll(async () => {
  await f.stop();
});

async function both(path: string): Promise<[Buffer, Buffer, number, number]> {
  const direct = await fetch(`${f.upstream.url}${path}`, { headers: { 'x-api-key': UPSTREAM_KEY } });
  const proxied = await f.get(path, ALICE);
  return [Buffer.from(await direct.arrayBuffer()), Buffer.from(await proxied.arrayBuffer()), direct.status, proxied.status];
}

describe('the proxy answers as its upstream', () => {
  test.each([
    '/exercise/query?primaryMuscle=CHEST',
    '/exercise/query?category=STRENGTH&category=CARDIO&limit=5',
    '/exercise/query?name=press&lang=de-DE',
    '/exercise/query?level=BEGINNER&equipment=BODY_ONLY',
    '/exercise/query?name=zzzz-nothing',
    '/exercise/Barbell_Bench_Press',
    '/exercise/Barbell_Bench_Press?lang=de-DE',
    '/exercise/Push_Up?lang=de-DE',
    '/exercise/push up',
    '/exercise/No_Such_Exercise',
    '/exercise/query?level=NOT_A_LEVEL',
  ])('%s', async (path) => {
    const [direct, proxied, directStatus, proxiedStatus] = await both(path.replace(/ /g, '%20'));
    expect(proxiedStatus).toBe(directStatus);
    expect(proxied.toString('utf8')).toBe(direct.toString('utf8'));
  });

  test('every ids page, following the cursors', async () => {
    let path: string | undefined = '/exercise/exerciseIds?limit=20';
    let pages = 0;
    while (path) {
      const [direct, proxied] = await both(path);
      expect(proxied.toString('utf8')).toBe(direct.toString('utf8'));
      const next = (JSON.parse(proxied.toString('utf8')) as { pagination: { next: string | null } }).pagination.next;
      path = next ? `/exercise/exerciseIds?limit=20&after=${encodeURIComponent(next)}` : undefined;
      pages += 1;
    }
    expect(pages).toBeGreaterThan(2);
  });

  test.each(['/images/Push_Up/premium/start.png', '/images/Plank/premium/end.png', '/videos/Push_Up/premium/demo.mp4'])('media bytes: %s', async (path) => {
    const [direct, proxied, directStatus, proxiedStatus] = await both(path);
    expect(proxiedStatus).toBe(200);
    expect(directStatus).toBe(200);
    expect(proxied.equals(direct)).toBe(true);
  });
});

describe('a catalogue directory in front', () => {
  let dir: string;
  let g: ProxyFixture;
  beforeAll(async () => {
    dir = tempDir('exercises-proxy-dir-');
    const lines = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"id":"Push_Up"'));
    writeFileSync(join(dir, 'exercises.jsonl'), `${lines.join('\n')}\n`);
    g = await startProxy({ dir });
  });
  afterAll(async () => {
    await g.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('answers the records and lists it holds without the upstream, and asks the upstream for the rest', async () => {
    const local = await g.get('/exercise/Push_Up');
    expect(((await local.json()) as { id: string }).id).toBe('Push_Up');
    const list = (await (await g.get('/exercise/exerciseIds')).json()) as { exercises: unknown[] };
    expect(list.exercises).toHaveLength(1);
    expect(g.upstreamCount()).toBe(0);
    const remote = await g.get('/exercise/Pull_Up');
    expect(((await remote.json()) as { id: string }).id).toBe('Pull_Up');
    expect(g.upstreamCount()).toBe(1);
  });

  test('follows the file when it is replaced (as mirror replaces it): a record added is answered from it', async () => {
    const text = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8');
    const lines = text.split('\n').filter((l) => l.includes('"id":"Push_Up"') || l.includes('"id":"Plank"'));
    writeFileSync(join(dir, 'next.jsonl'), `${lines.join('\n')}\n`);
    renameSync(join(dir, 'next.jsonl'), join(dir, 'exercises.jsonl'));
    const before = g.upstreamCount();
    expect(((await (await g.get('/exercise/Plank')).json()) as { id: string }).id).toBe('Plank');
    expect(((await (await g.get('/exercise/Push_Up')).json()) as { id: string }).id).toBe('Push_Up');
    expect(g.upstreamCount()).toBe(before);
  });

  test('media it lacks are pulled into it, in the catalogue layout', async () => {
    const res = await g.get('/images/Pull_Up/premium/start.png');
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(readFileSync(join(dir, 'images', 'Pull_Up', 'premium', 'start.png')).equals(bytes)).toBe(true);
  });
});
