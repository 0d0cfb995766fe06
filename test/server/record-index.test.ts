/**
 * The record index of an in-process catalogue (src/server/record-index.ts): a single record is
 * read from its own line once a whole load has indexed the file, with the very answer a whole
 * load gives; a listing still reads the whole catalogue; and any change to the file, a damaged
 * or misleading index, or an index that cannot be written only means the whole catalogue is
 * read, as before.
 */
import { appendFileSync, chmodSync, cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogueError } from '../../src/catalogue/load.js';
import { inProcessDispatcher } from '../../src/server/in-process.js';
import { catalogueVersion } from '../../src/server/record-index.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';
import { FREE_KEY, PREMIUM_KEY } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { dispatchGet } from './support.js';

/** A copy of the sample catalogue's records (no media), and an empty index directory. */
function setUp(lines?: (text: string) => string): { dir: string; indexDir: string } {
  const dir = tempDir('exercises-records-');
  const text = readFileSync(join(sampleCatalogueDir(), 'exercises.jsonl'), 'utf8');
  writeFileSync(join(dir, 'exercises.jsonl'), lines ? lines(text) : text);
  return { dir, indexDir: join(tempDir('exercises-record-index-'), 'catalogue-records') };
}

/**
 * Breaks the catalogue behind its index: a last line that is not JSON, and the index brought up
 * to the file's new version. From then on a whole read fails, so an answer shows it came from
 * the index alone.
 */
function breakBehindIndex(dir: string, indexDir: string): void {
  appendFileSync(join(dir, 'exercises.jsonl'), '{ not json\n');
  const file = join(indexDir, readdirSync(indexDir)[0]!);
  const index = JSON.parse(readFileSync(file, 'utf8')) as object;
  writeFileSync(file, JSON.stringify({ ...index, version: catalogueVersion(dir) }));
}

async function get(local: ReturnType<typeof inProcessDispatcher>, path: string, key = PREMIUM_KEY) {
  const res = await dispatchGet(local, path, { 'x-api-key': key });
  return { status: res.statusCode, language: res.headers['content-language'], body: res.body.toString('utf8') };
}

const PATHS = [
  '/exercise/Push_Up',
  '/exercise/push-up', // by name, in another case
  '/exercise/Push_Up?lang=de-DE',
  '/exercise/No_Such_Thing',
];

describe('the record index of an in-process catalogue', () => {
  it('is written by a whole load, then answers single records alone, as the whole catalogue would', async () => {
    const { dir, indexDir } = setUp();
    const first = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    const whole = [];
    for (const path of PATHS) whole.push(await get(first, path));
    whole.push(await get(first, '/exercise/Push_Up', FREE_KEY));
    expect(readdirSync(indexDir)).toHaveLength(1);
    breakBehindIndex(dir, indexDir);

    const next = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    const indexed = [];
    for (const path of PATHS) indexed.push(await get(next, path));
    indexed.push(await get(next, '/exercise/Push_Up', FREE_KEY));
    expect(indexed).toEqual(whole);
    expect(indexed[0]!.status).toBe(200);
    expect(indexed[3]!.status).toBe(404);

    // A listing needs every record: the whole file is read, and found broken.
    await expect(get(next, '/exercise/exerciseIds?limit=2')).rejects.toThrow(/not valid JSON/);
  });

  it('answers media requests through it: the file of a known id, 404 for an unknown one', async () => {
    const { dir, indexDir } = setUp();
    cpSync(join(sampleCatalogueDir(), 'videos'), join(dir, 'videos'), { recursive: true });
    await get(inProcessDispatcher({ dir, recordIndexDir: indexDir }), '/exercise/Plank');
    breakBehindIndex(dir, indexDir);
    const next = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    const video = await dispatchGet(next, '/videos/Plank/premium/demo.mp4', { 'x-api-key': PREMIUM_KEY });
    expect(video.statusCode).toBe(200);
    expect(video.body.equals(readFileSync(join(dir, 'videos', 'Plank', 'premium', 'demo.mp4')))).toBe(true);
    expect((await get(next, '/videos/No_Such_Thing/premium/demo.mp4')).status).toBe(404);
  });

  it('reads records past a BOM and CRLF line ends the same way', async () => {
    const { dir, indexDir } = setUp((text) => `\uFEFF${text.replace(/\n/g, '\r\n')}`);
    const first = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    expect((await get(first, '/exercise/exerciseIds?limit=2')).status).toBe(200);
    // The first line's record (after the BOM) and the last one's.
    const lines = readFileSync(join(dir, 'exercises.jsonl'), 'utf8')
      .slice(1)
      .split('\r\n')
      .filter((line) => line !== '');
    const idOf = (line: string): string => (JSON.parse(line) as { id: string }).id;
    const ids = [idOf(lines[0]!), idOf(lines.at(-1)!)];
    const whole = [];
    for (const id of ids) whole.push(await get(first, `/exercise/${id}`));
    breakBehindIndex(dir, indexDir);
    const next = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    for (const [i, id] of ids.entries()) {
      const answer = await get(next, `/exercise/${id}`);
      expect(answer.status).toBe(200);
      expect(answer).toEqual(whole[i]);
    }
  });

  it('is not used once the file changes, and is written anew', async () => {
    const { dir, indexDir } = setUp();
    await get(inProcessDispatcher({ dir, recordIndexDir: indexDir }), '/exercise/Push_Up');
    const before = readFileSync(join(indexDir, readdirSync(indexDir)[0]!), 'utf8');
    appendFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify({ id: 'Zz_New', name: 'Zz New', category: 'STRENGTH' })}\n`);

    const next = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    expect((await get(next, '/exercise/Zz_New')).status).toBe(200);
    expect(readFileSync(join(indexDir, readdirSync(indexDir)[0]!), 'utf8')).not.toBe(before);
    breakBehindIndex(dir, indexDir);
    const third = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    expect((await get(third, '/exercise/Zz_New')).status).toBe(200);
  });

  it('a catalogue broken after it was indexed is reported as broken, not answered from the index', async () => {
    const { dir, indexDir } = setUp();
    await get(inProcessDispatcher({ dir, recordIndexDir: indexDir }), '/exercise/Push_Up');
    appendFileSync(join(dir, 'exercises.jsonl'), '{ not json\n');
    const next = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    await expect(get(next, '/exercise/Push_Up')).rejects.toThrow(CatalogueError);
    await expect(get(next, '/exercise/Push_Up')).rejects.toThrow(/not valid JSON/);
  });

  it('a damaged index, or one pointing at the wrong lines, only means the whole catalogue is read', async () => {
    const { dir, indexDir } = setUp();
    const expected = await get(inProcessDispatcher({ dir, recordIndexDir: indexDir }), '/exercise/Push_Up');
    const file = join(indexDir, readdirSync(indexDir)[0]!);
    const index = JSON.parse(readFileSync(file, 'utf8')) as { lines: [string, number, number][] };
    // Every id now points at the first record's line.
    writeFileSync(file, JSON.stringify({ ...index, lines: index.lines.map(([id]) => [id, index.lines[0]![1], index.lines[0]![2]]) }));
    const misled = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    expect(await get(misled, '/exercise/Push_Up')).toEqual(expected);

    writeFileSync(file, '{ not an index');
    const damaged = inProcessDispatcher({ dir, recordIndexDir: indexDir });
    expect(await get(damaged, '/exercise/Push_Up')).toEqual(expected);
    // Read whole, and indexed anew.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ lines: index.lines });
  });

  it('answers the same when the index cannot be written', async () => {
    const { dir } = setUp();
    const blocked = join(tempDir('exercises-record-index-'), 'blocked');
    cpSync(join(dir, 'exercises.jsonl'), blocked); // a file where the index directory would be
    chmodSync(blocked, 0o400);
    const local = inProcessDispatcher({ dir, recordIndexDir: blocked });
    expect((await get(local, '/exercise/Push_Up')).status).toBe(200);
    const again = inProcessDispatcher({ dir, recordIndexDir: blocked });
    expect((await get(again, '/exercise/Push_Up')).status).toBe(200);
    expect(readFileSync(blocked)).toEqual(readFileSync(join(dir, 'exercises.jsonl')));
  });
});
