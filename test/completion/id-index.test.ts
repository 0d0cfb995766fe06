/** The id index the cache layer keeps for completion: `id<TAB>name` lines, deduplicated, capped, replaced atomically. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendIdIndex, ID_INDEX_FILE, idIndexPath, readIdIndex, readIdIndexMatching } from '../../src/completion/id-index.js';
import { tempDir } from '../helpers/temp.js';

function cacheDir(): string {
  return join(tempDir('exercises-id-index-'), 'exercises');
}

describe('id index', () => {
  it('reads nothing when there is no file', () => {
    expect(readIdIndex(cacheDir())).toEqual([]);
  });

  it('writes id<TAB>name lines, creating the folder, and reads them back', () => {
    const dir = cacheDir();
    appendIdIndex(dir, [{ id: 'Push_Up', name: 'Push-Up' }, { id: 'Plank' }]);
    expect(idIndexPath(dir)).toBe(join(dir, ID_INDEX_FILE));
    expect(readFileSync(idIndexPath(dir), 'utf8')).toBe('Push_Up\tPush-Up\nPlank\n');
    expect(readIdIndex(dir)).toEqual([{ id: 'Push_Up', name: 'Push-Up' }, { id: 'Plank' }]);
  });

  it('keeps one line per id: a new name moves it last, a missing name keeps the old one', () => {
    const dir = cacheDir();
    appendIdIndex(dir, [
      { id: 'A', name: 'Alpha' },
      { id: 'B', name: 'Beta' },
      { id: 'C', name: 'Gamma' },
    ]);
    appendIdIndex(dir, [{ id: 'A', name: 'Alpha 2' }, { id: 'B' }, { id: 'D', name: 'Delta' }, { id: 'D', name: 'Delta' }]);
    expect(readIdIndex(dir)).toEqual([
      { id: 'B', name: 'Beta' },
      { id: 'C', name: 'Gamma' },
      { id: 'A', name: 'Alpha 2' },
      { id: 'D', name: 'Delta' },
    ]);
  });

  it('does not rewrite the file when nothing changes', () => {
    const dir = cacheDir();
    appendIdIndex(dir, [{ id: 'A', name: 'Alpha' }]);
    writeFileSync(idIndexPath(dir), 'A\tAlpha\n# marker\n');
    appendIdIndex(dir, [{ id: 'A', name: 'Alpha' }, { id: 'A' }]);
    expect(readFileSync(idIndexPath(dir), 'utf8')).toContain('# marker');
  });

  it('keeps the newest lines up to the cap', () => {
    const dir = cacheDir();
    appendIdIndex(
      dir,
      Array.from({ length: 8 }, (_, i) => ({ id: `id${i}` })),
      { maxLines: 5 },
    );
    expect(readIdIndex(dir).map((e) => e.id)).toEqual(['id3', 'id4', 'id5', 'id6', 'id7']);
    appendIdIndex(dir, [{ id: 'new' }], { maxLines: 5 });
    expect(readIdIndex(dir).map((e) => e.id)).toEqual(['id4', 'id5', 'id6', 'id7', 'new']);
  });

  it('never writes a line break or tab inside a field', () => {
    const dir = cacheDir();
    appendIdIndex(dir, [{ id: 'bad\tid', name: 'x' }, { id: 'bad\nid' }, { id: '' }, { id: 'Ok', name: 'Two\nlines\tand tab ' }]);
    expect(readFileSync(idIndexPath(dir), 'utf8')).toBe('Ok\tTwo lines and tab\n');
  });

  it('replaces the file by renaming, leaving no temporary file behind', () => {
    const dir = cacheDir();
    for (let i = 0; i < 5; i++) appendIdIndex(dir, [{ id: `id${i}` }]);
    expect(readdirSync(dir)).toEqual([ID_INDEX_FILE]);
    expect(readIdIndex(dir)).toHaveLength(5);
  });

  it('fails loudly when it cannot write, leaving nothing behind', () => {
    const parent = tempDir('exercises-id-index-');
    writeFileSync(join(parent, 'file'), '');
    expect(() => appendIdIndex(join(parent, 'file'), [{ id: 'A' }])).toThrow();
    expect(readdirSync(parent)).toEqual(['file']);
  });

  it('reads a file written by hand with CRLF line ends and blank lines', () => {
    const dir = cacheDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(idIndexPath(dir), 'A\tAlpha\r\n\r\nB\r\n\n');
    expect(readIdIndex(dir)).toEqual([{ id: 'A', name: 'Alpha' }, { id: 'B' }]);
  });
});

describe('searching the index', () => {
  it('finds the same entries as reading every line and filtering, for any prefix', () => {
    const dir = cacheDir();
    const entries = [
      { id: 'Push_Up', name: 'Push-Up' },
      { id: 'Pull_Up', name: 'Pull-Up' },
      { id: 'push_press', name: 'Push Press' },
      { id: 'Plank' },
      { id: 'Bench', name: 'push bench' },
      { id: 'Tab', name: 'x\tPush in a name' },
      { id: 'Übung', name: 'Übung' },
    ];
    appendIdIndex(dir, entries);
    const all = readIdIndex(dir);
    for (const prefix of ['', 'P', 'Pu', 'pu', 'PUSH', 'Push_', 'push ', 'Plank', 'x', 'Ü', 'ü', 'nothing']) {
      const expected = all.filter((e) => e.id.startsWith(prefix) || e.name?.toLowerCase().startsWith(prefix.toLowerCase()));
      const found = readIdIndexMatching(dir, prefix);
      for (const e of expected) expect(found, prefix).toContainEqual(e);
    }
    expect(readIdIndexMatching(dir, 'pu')).toEqual([
      { id: 'Push_Up', name: 'Push-Up' },
      { id: 'Pull_Up', name: 'Pull-Up' },
      { id: 'push_press', name: 'Push Press' },
      { id: 'Bench', name: 'push bench' },
    ]);
    expect(readIdIndexMatching(cacheDir(), 'P')).toEqual([]);
    // The first ones in file order, however many more match.
    expect(readIdIndexMatching(dir, 'pu', 2)).toEqual([
      { id: 'Push_Up', name: 'Push-Up' },
      { id: 'Pull_Up', name: 'Pull-Up' },
    ]);
    expect(readIdIndexMatching(dir, '', 3).map((e) => e.id)).toEqual(['Push_Up', 'Pull_Up', 'push_press']);
  });
});
