/** The picker's known exercises read from the response cache: every cached item, however large the page. */
import { describe, expect, it } from 'vitest';
import { cachedExercises } from '../../src/prompt/known-exercises.js';
import { cacheKey } from '../../src/cache/cached-get.js';
import { writeEntrySync } from '../../src/cache/store-files.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const tempDir = tempDirsPerTest('exercises-known-');
const ORIGIN = 'http://127.0.0.1:9';

describe('cachedExercises', () => {
  it('takes every item of a cached page of 150,000 (no argument spread to overflow) and leaves other services out', async () => {
    const dir = tempDir();
    const exercises = Array.from({ length: 150_000 }, (_, i) => ({ id: `E${i}`, name: `Exercise ${i}` }));
    const page = Buffer.from(JSON.stringify({ exercises }));
    writeEntrySync(dir, cacheKey({ origin: ORIGIN, path: '/exercise/exerciseIds', query: { limit: '150000' } }), {}, page);
    writeEntrySync(dir, cacheKey({ origin: 'http://127.0.0.2:9', path: '/exercise/Other' }), {}, Buffer.from('{"id":"Other"}'));
    const found = (await cachedExercises(dir, ORIGIN)) as Array<{ id: string }>;
    expect(found).toHaveLength(150_000);
    expect(found[149_999]!.id).toBe('E149999');
    expect(found.some((e) => e.id === 'Other')).toBe(false);
  });
});
