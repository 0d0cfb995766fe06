/** The paging iterator's cursor rules and stop conditions, against scripted pages. */
import { describe, expect, it } from 'vitest';
import { nextCursor, paginate, type PageCursor } from '../../src/api/paging.js';
import type { ListResponse } from '../../src/catalogue/types.js';

function page(ids: string[], pagination: Record<string, unknown>): ListResponse {
  return { exercises: ids.map((id) => ({ id, name: id })), pagination: { total: 1000, ...pagination } };
}

async function collect(iter: AsyncIterable<{ id: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of iter) out.push(item.id);
  return out;
}

describe('nextCursor', () => {
  it('prefers the server cursor names in order, then the edge id', () => {
    expect(nextCursor(page(['a', 'b'], { next: 'N', after: 'A' }), 'after')).toBe('N');
    expect(nextCursor(page(['a', 'b'], { nextCursor: 'NC', endCursor: 'E' }), 'after')).toBe('NC');
    expect(nextCursor(page(['a', 'b'], { endCursor: 'E' }), 'after')).toBe('E');
    expect(nextCursor(page(['a', 'b'], {}), 'after')).toBe('b');
    expect(nextCursor(page(['a', 'b'], { previousCursor: 'P' }), 'before')).toBe('P');
    expect(nextCursor(page(['a', 'b'], {}), 'before')).toBe('a');
    expect(nextCursor(page(['a', 'b'], { next: null }), 'after')).toBeNull();
  });
});

describe('paginate', () => {
  it('follows server cursors until a short page', async () => {
    const calls: PageCursor[] = [];
    const pages = [page(['a', 'b'], { next: 'c1' }), page(['c', 'd'], { next: 'c2' }), page(['e'], { next: null })];
    const ids = await collect(paginate(async (c) => (calls.push(c), pages[calls.length - 1]!), { limit: 2 }));
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(calls).toEqual([{}, { after: 'c1' }, { after: 'c2' }]);
  });

  it('falls back to the last id when the server sends no cursor, stopping at total', async () => {
    const calls: PageCursor[] = [];
    const all = ['a', 'b', 'c', 'd'];
    const ids = await collect(
      paginate(
        async (c) => {
          calls.push(c);
          const start = c.after ? all.indexOf(c.after) + 1 : 0;
          return { exercises: all.slice(start, start + 2).map((id) => ({ id, name: id })), pagination: { total: 4 } };
        },
        { limit: 2 },
      ),
    );
    expect(ids).toEqual(all);
    expect(calls).toEqual([{}, { after: 'b' }]);
  });

  it('stops on a repeated cursor (a server that ignores it)', async () => {
    let calls = 0;
    const ids = await collect(paginate(async () => (calls++, page(['a', 'b'], { next: 'same' })), { limit: 2 }));
    expect(calls).toBe(2);
    expect(ids).toEqual(['a', 'b', 'a', 'b']);
  });

  it('stops on a repeated fallback id', async () => {
    let calls = 0;
    await collect(paginate(async () => (calls++, page(['a', 'b'], {})), { limit: 2 }));
    expect(calls).toBe(2);
  });

  it('stops on an empty page and at max', async () => {
    let calls = 0;
    expect(await collect(paginate(async () => (calls++, page([], { next: 'x' })), { limit: 2 }))).toEqual([]);
    expect(calls).toBe(1);
    calls = 0;
    const ids = await collect(paginate(async (c) => (calls++, page([`${c.after ?? ''}x`, `${c.after ?? ''}y`], {})), { limit: 2, max: 3 }));
    expect(ids).toHaveLength(3);
    expect(calls).toBe(2);
  });

  it('walks backwards with before', async () => {
    const calls: PageCursor[] = [];
    const pages = [page(['c', 'd'], { prev: 'p1' }), page(['a', 'b'], { prev: null })];
    const ids = await collect(paginate(async (c) => (calls.push(c), pages[calls.length - 1]!), { limit: 2, before: 'e' }));
    expect(ids).toEqual(['c', 'd', 'a', 'b']);
    expect(calls).toEqual([{ before: 'e' }, { before: 'p1' }]);
  });
});
