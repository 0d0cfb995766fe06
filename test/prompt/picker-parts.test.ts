/** The picker's parts without a terminal: fuzzy filtering, when a prompt may be shown, the sanitised lines, the usage errors. */
import { describe, expect, it } from 'vitest';
import { type PickCandidate, candidateOf, foldText, fuzzyFilter, mergeCandidates } from '../../src/prompt/candidates.js';
import { canPrompt } from '../../src/prompt/pick.js';
import { columnsFor, labelOf } from '../../src/prompt/label.js';
import { loadMeasure } from '../../src/output/width.js';
import { DEFAULT_GLOBALS } from '../../src/context.js';
import { runInProcess } from '../helpers/test-context.js';

const c = (raw: Record<string, unknown>): PickCandidate => candidateOf(raw)!;
const ITEMS = [
  c({ id: 'Barbell_Bench_Press', name: 'Barbell Bench Press', aliases: ['Flat Bench'], primaryMuscle: ['CHEST'], equipment: 'BARBELL' }),
  c({ id: 'Developpe_Couche', name: 'Développé Couché', primaryMuscle: ['CHEST'] }),
  c({ id: 'Plank', name: 'Plank' }),
  c({ id: 'Box_Jump', name: 'Box Jump', displayName: 'Sprung auf die Kiste' }),
];
const ids = (query: string) => fuzzyFilter(ITEMS, query, (x) => x.folded).map((x) => x.id);

describe('fuzzy filtering', () => {
  it('folds case, accents and the separators of ids', () => {
    expect(foldText('Développé_Couché-SERRÉ')).toBe('developpe couche serre');
  });

  it('finds by id, name, display name and alias; accents and case do not matter', () => {
    expect(ids('bench')).toEqual(['Barbell_Bench_Press']);
    expect(ids('DEVELOPPE')).toEqual(['Developpe_Couche']);
    expect(ids('kiste')).toEqual(['Box_Jump']);
    expect(ids('flat')).toEqual(['Barbell_Bench_Press']);
    expect(ids('box_j')).toEqual(['Box_Jump']);
  });

  it('matches letters in order when no substring does, and every word must match', () => {
    expect(ids('bbp')).toEqual(['Barbell_Bench_Press']);
    expect(ids('bench plank')).toEqual([]);
    expect(ids('zzz')).toEqual([]);
  });

  it('ranks a substring above scattered letters, and keeps everything for an empty query', () => {
    const items = [c({ id: 'p_l_a_n_k_s', name: 'P L A N K S' }), c({ id: 'Plank', name: 'Plank' })];
    expect(fuzzyFilter(items, 'plank', (x) => x.folded).map((x) => x.id)).toEqual(['Plank', 'p_l_a_n_k_s']);
    expect(fuzzyFilter(ITEMS, '  ', (x) => x.folded)).toHaveLength(ITEMS.length);
  });

  it('scores a record with 150,000 aliases from the server without overflowing the stack, by its best text', () => {
    const flood = c({ id: 'Flood', name: 'Flood', aliases: Array.from({ length: 150_000 }, (_, i) => `press ${i}`) });
    expect(fuzzyFilter([...ITEMS, flood], 'press', (x) => x.folded).map((x) => x.id)).toEqual(['Flood', 'Barbell_Bench_Press']); // an alias starting with the word beats a later word
    expect(fuzzyFilter([flood], 'squat', (x) => x.folded)).toEqual([]);
  });
});

describe('candidates', () => {
  it('merge by id, filling what one source lacks from another', () => {
    const merged = mergeCandidates([[c({ id: 'Plank', name: 'Plank' })], [c({ id: 'Plank', primaryMuscle: ['ABDOMINALS'], equipment: 'BODY_ONLY' })]]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ id: 'Plank', name: 'Plank', primaryMuscle: ['ABDOMINALS'], equipment: 'BODY_ONLY' });
  });

  it('take no record without a string id', () => {
    expect(candidateOf({ name: 'No id' })).toBeUndefined();
    expect(candidateOf(null)).toBeUndefined();
  });
});

describe('the lines shown', () => {
  it('show muscle and equipment, fit the width, and show control characters as text', async () => {
    const measure = await loadMeasure();
    const hostile = c({ id: 'X\u001b[2J', name: 'Bad \u001b]0;title\u0007 \u009b31m', primaryMuscle: ['LOWER_BACK'], equipment: 'E_Z_CURL_BAR' });
    const cols = columnsFor([...ITEMS, hostile], 60, measure);
    for (const item of [...ITEMS, hostile]) {
      const line = labelOf(item, cols, measure);
      expect(measure.width(line)).toBeLessThanOrEqual(60); // columnsFor is given the room for the label itself
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
    expect(labelOf(ITEMS[0]!, columnsFor(ITEMS, 100, measure), measure)).toMatch(/^Barbell Bench Press\s+chest · barbell\s+Barbell_Bench_Press$/);
    expect(labelOf(hostile, cols, measure)).toContain('Bad \\x1b]0;title');
  });
});

describe('when a prompt may be shown', () => {
  const io = { stdinIsTTY: true, stdoutIsTTY: true } as never;
  const ask = (over: { io?: object; env?: Record<string, string>; globals?: object } = {}) =>
    canPrompt({ io: { ...(io as object), ...over.io } as never, env: over.env ?? {}, globals: { ...DEFAULT_GLOBALS, ...over.globals } });

  it('at a terminal, and nowhere else', () => {
    expect(ask()).toBe(true);
    expect(ask({ io: { stdinIsTTY: false } })).toBe(false);
    expect(ask({ io: { stdoutIsTTY: false } })).toBe(false);
    expect(ask({ globals: { input: false } })).toBe(false);
    expect(ask({ globals: { json: true } })).toBe(false);
    expect(ask({ globals: { format: 'tsv' } })).toBe(false);
    expect(ask({ env: { CI: 'true' } })).toBe(false);
    expect(ask({ env: { BUILD_NUMBER: '12' } })).toBe(false);
    expect(ask({ env: { CI: 'false' } })).toBe(true);
  });

  it.each([
    [['show'], /Give at least one exercise id or name/],
    [['image'], /Give the id or name of the exercise whose images/],
    [['video'], /Give the id or name of the exercise whose videos/],
    [['--no-input', 'show'], /Give at least one exercise id or name/],
    [['--json', 'show'], /Give at least one exercise id or name/],
    [['query', '--pick'], /--pick chooses at a terminal/],
  ])('%o without a terminal (or a prompt allowed) is a usage error, exit 2, with no request', async (args, message) => {
    const r = await runInProcess(['--sandbox', ...args], { tty: ['--no-input', '--json'].includes(args[0]!) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
