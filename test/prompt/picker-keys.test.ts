/** The picker's keys as fzf has them and its frame (src/prompt/picker.ts), without a terminal. */
import { describe, expect, it } from 'vitest';
import { type Key, type PickerRules, type PickerState, frameLines, initialState, press } from '../../src/prompt/picker.js';
import { type PickCandidate, candidateOf, fuzzyFilter } from '../../src/prompt/candidates.js';
import { columnsFor, labelOf } from '../../src/prompt/label.js';
import { loadMeasure } from '../../src/output/width.js';

const ROWS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

function rules(multi: boolean, pageSize = 3): PickerRules<string> {
  return { filter: (term) => ROWS.filter((r) => r.includes(term)), keyOf: (r) => r, multi, pageSize };
}

/** The state after a run of keys (a string is typed text), and the last key's result. */
function after(keys: Array<Key | string>, multi = false) {
  const r = rules(multi);
  let state: PickerState<string> = initialState(r);
  let result: ReturnType<typeof press<string>>[1] = { kind: 'continue' };
  for (const k of keys) [state, result] = typeof k === 'string' ? press(state, { sequence: k }, k, r, ROWS) : press(state, k, undefined, r, ROWS);
  return { state, result };
}

const ctrl = (name: string): Key => ({ name, ctrl: true });
const ENTER: Key = { name: 'return' };

describe('moving', () => {
  it.each([
    ['Down', { name: 'down' }],
    ['Ctrl-N', ctrl('n')],
    ['Ctrl-J (a line feed)', { name: 'enter' }],
  ] as const)('%s moves down, and stops at the last row', (_label, key) => {
    expect(after([key]).state.cursor).toBe(1);
    expect(after([key, key, key, key, key, key]).state.cursor).toBe(4);
  });

  it.each([
    ['Up', { name: 'up' }],
    ['Ctrl-P', ctrl('p')],
    ['Ctrl-K', ctrl('k')],
  ] as const)('%s moves up, and stops at the first row', (_label, key) => {
    expect(after([ctrl('n'), ctrl('n'), key]).state.cursor).toBe(1);
    expect(after([key]).state.cursor).toBe(0);
  });

  it('scrolls the page to keep the current row shown', () => {
    const { state } = after([ctrl('n'), ctrl('n'), ctrl('n'), ctrl('n')]);
    expect(state.offset).toBe(2);
    expect(after([ctrl('n'), ctrl('n'), ctrl('n'), ctrl('n'), ctrl('p'), ctrl('p'), ctrl('p'), ctrl('p')]).state.offset).toBe(0);
  });
});

describe('typing', () => {
  it('filters, and moves the cursor back to the best match', () => {
    const { state } = after([ctrl('n'), 'e', 'l']);
    expect(state.term).toBe('el');
    expect(state.matches).toEqual(['delta']);
    expect(state.cursor).toBe(0);
  });

  it('Backspace, Ctrl-W and Ctrl-U edit the query', () => {
    expect(after(['a', 'l', { name: 'backspace' }]).state.term).toBe('a');
    expect(after(['b', 'r', ' ', 'c', 'h', ctrl('w')]).state.term).toBe('br ');
    expect(after(['a', 'l', ctrl('u')]).state.matches).toEqual(ROWS);
  });

  it('ignores control characters that are no key of its own', () => {
    expect(after(['\u001b[31m']).state.term).toBe('');
  });
});

describe('choosing', () => {
  it('Enter takes the current row', () => {
    expect(after([ctrl('n'), ENTER]).result).toEqual({ kind: 'done', chosen: ['bravo'] });
  });

  it('Enter with nothing matching waits for a better query', () => {
    expect(after(['z', 'z', ENTER]).result).toEqual({ kind: 'continue' });
  });

  it('Tab marks and moves down, Shift-Tab marks and moves up; Enter takes the marked rows in the order marked', () => {
    const { state, result } = after([{ name: 'tab' }, { name: 'tab' }, { name: 'tab', shift: true }, ENTER], true);
    // Tab on alpha and on bravo leaves the cursor on charlie; Shift-Tab marks charlie and goes back up.
    expect(state.marked).toEqual(['alpha', 'bravo', 'charlie']);
    expect(result).toEqual({ kind: 'done', chosen: ['alpha', 'bravo', 'charlie'] });
  });

  it('Tab on a marked row unmarks it; marks outlive the filter that hid them', () => {
    expect(after([{ name: 'tab' }, ctrl('p'), { name: 'tab' }], true).state.marked).toEqual([]);
    expect(after([{ name: 'tab' }, 'e', 'c', 'h', ENTER], true).result).toEqual({ kind: 'done', chosen: ['alpha'] });
  });

  it('Tab does nothing where the command takes one exercise (no copy of the row into the query)', () => {
    const { state } = after([{ name: 'tab' }]);
    expect(state.marked).toEqual([]);
    expect(state.term).toBe('');
    expect(state.cursor).toBe(0);
  });

  it.each([
    ['Esc', { name: 'escape' }],
    ['Ctrl-C', ctrl('c')],
    ['Ctrl-G', ctrl('g')],
    ['Ctrl-Q', ctrl('q')],
  ] as const)('%s leaves', (_label, key) => {
    expect(after(['a', key]).result).toEqual({ kind: 'cancel' });
  });
});

describe('the frame', () => {
  const c = (raw: Record<string, unknown>): PickCandidate => candidateOf(raw)!;
  const items = [
    c({ id: 'Bench_Press_-_With_Bands_And_Chains', name: 'Bench Press With Bands', primaryMuscle: ['CHEST'], equipment: 'BARBELL' }),
    c({ id: 'Plank', name: 'Plank', primaryMuscle: ['ABDOMINALS'], equipment: 'BODY_ONLY' }),
  ];

  it('shows the query, the match count and the marks, each line within the width', async () => {
    const measure = await loadMeasure();
    const cols = columnsFor(items, 40, measure);
    const view = {
      message: 'Pick among 2 results to show (type to filter, Tab marks several):',
      items,
      filter: (term: string) => fuzzyFilter(items, term, (x) => x.folded),
      keyOf: (x: PickCandidate) => x.id,
      line: (x: PickCandidate) => labelOf(x, cols, measure),
      multi: true,
      pageSize: 5,
      measure,
    };
    let state = initialState(view);
    [state] = press(state, { name: 'tab' }, undefined, view, items);
    const lines = frameLines(view, state, 43);
    expect(lines[1]).toBe('> █');
    expect(lines[2]).toBe('  2/2  (1 marked; Tab marks)');
    expect(lines[3]).toMatch(/^ \+Bench Press/);
    expect(lines[4]).toMatch(/^❯ Plank/);
    for (const line of lines) expect(measure.width(line)).toBeLessThanOrEqual(43);
  });

  it('at 80 columns the id is whole while the name has room; the details give way first', async () => {
    const measure = await loadMeasure();
    const cols = columnsFor(items, 77, measure);
    expect(labelOf(items[0]!, cols, measure)).toContain('Bench_Press_-_With_Bands_And_Chains');
    const narrow = columnsFor(items, 60, measure);
    const line = labelOf(items[0]!, narrow, measure);
    expect(line).toContain('Bench_Press_-_With_Bands_And_Chains');
    expect(measure.width(line)).toBeLessThanOrEqual(60);
    // Only when the name is down to its floor is the id cut.
    const tiny = columnsFor(items, 30, measure);
    expect(tiny.title).toBeGreaterThanOrEqual(4);
    expect(measure.width(labelOf(items[0]!, tiny, measure))).toBeLessThanOrEqual(30);
  });
});
