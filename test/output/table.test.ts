/** Terminal tables at 40, 80, 100 and 200 columns: a gap always, the id whole, wide characters measured. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ExerciseSummary } from '../../src/catalogue/types.js';
import { LIST_TABLE_COLUMNS } from '../../src/output/fields.js';
import { CLI_TABLE3_MAX_ROWS, layoutColumns, renderTable } from '../../src/output/table.js';
import { WIDTHS } from '../helpers/test-context.js';

const SAMPLE: ExerciseSummary[] = readFileSync(fileURLToPath(new URL('../../sample/exercises.jsonl', import.meta.url)), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as ExerciseSummary);
/** What `ids --all --max 30` shows: the first 30 of the sample (Foam_Roller_IT_Band_Release among them). */
const FIRST_30 = SAMPLE.slice(0, 30);

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** The line as terminal cells: each grapheme, then '' for the second cell of a wide one. */
function cells(line: string): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(line)) {
    const w = stringWidth(segment);
    out.push(segment);
    for (let i = 1; i < w; i++) out.push('');
  }
  return out;
}

/** Column start positions, from the header row (titles hold no double blanks). */
function columnStarts(header: string): number[] {
  const starts = [0];
  const re = / {2,}(\S)/g;
  for (let m = re.exec(header); m; m = re.exec(header)) starts.push(stringWidth(header.slice(0, m.index + m[0].length - 1)));
  return starts;
}

function render(items: readonly ExerciseSummary[], width: number): Promise<string[]> {
  return renderTable(items, LIST_TABLE_COLUMNS, { width }).then((t) => t.trimEnd().split('\n'));
}

describe('list table', () => {
  for (const width of WIDTHS) {
    it(`at ${width} columns: every line fits, columns two blanks apart, ids whole`, async () => {
      const lines = await render(FIRST_30, width);
      const starts = columnStarts(lines[0]!);
      expect(starts.length).toBeGreaterThanOrEqual(2); // at least ID and NAME
      lines.forEach((line, row) => {
        expect(stringWidth(line)).toBeLessThanOrEqual(width);
        const c = cells(line);
        for (const start of starts.slice(1)) {
          if (c.length <= start) continue; // an empty trailing cell
          // The two cells before each column are blank: cells never run together.
          expect([c[start - 1], c[start - 2]], `line ${row}: ${line}`).toEqual([' ', ' ']);
        }
        if (row > 0) expect(line.startsWith(`${FIRST_30[row - 1]!.id} `)).toBe(true);
      });
    });
  }

  it('never runs Foam_Roller_IT_Band_Release into its name (the 80-column report)', async () => {
    const lines = await render(FIRST_30, 80);
    const line = lines.find((l) => l.startsWith('Foam_Roller_IT_Band_Release'))!;
    expect(line).toMatch(/^Foam_Roller_IT_Band_Release {2,}Foam Roller IT Band Release/);
  });

  it('shows the media columns when the width allows, and drops them first when it does not', async () => {
    const [at40, at80, at200] = await Promise.all([render(FIRST_30, 40), render(FIRST_30, 80), render(FIRST_30, 200)]);
    expect(at40[0]).toMatch(/^ID +NAME$/);
    expect(at80[0]).toContain('IMAGES');
    expect(at200[0]).toMatch(/^ID +NAME +ALIASES +IMAGES +VIDEOS$/);
    const bench = at200.find((l) => l.startsWith('Barbell_Bench_Press '))!;
    expect(bench).toMatch(/start; end +demo$/);
  });

  it('cuts name and aliases with … but never the id, even when the id is wider than the terminal', async () => {
    const longId = { id: 'An_Exercise_Id_Far_Longer_Than_Forty_Columns_Wide', name: 'Long', aliases: ['x'] };
    const lines = await render([longId, ...FIRST_30.slice(0, 3)], 40);
    expect(lines[1]).toBe(longId.id);
    const narrow = await render(FIRST_30, 40);
    expect(narrow.some((l) => l.endsWith('…'))).toBe(true);
  });

  it('measures wide and combining characters in terminal cells', async () => {
    const items: ExerciseSummary[] = [
      { id: 'Wide', name: '卧推 杠铃卧推 杠铃卧推 杠铃卧推 杠铃卧推', premiumImages: ['start'] },
      { id: 'Combining', name: 'Cafe\u0301 de\u0301veloppe\u0301 e\u0301tire\u0301', premiumImages: ['end'] },
      { id: 'Emoji', name: '🏋️ Press 💪🏽 👨‍👩‍👧', premiumImages: ['start'] },
      { id: 'Plain', name: 'Plain Name', premiumImages: ['start'] },
    ];
    for (const width of [40, 80]) {
      const lines = await render(items, width);
      const starts = columnStarts(lines[0]!);
      for (const line of lines) {
        expect(stringWidth(line)).toBeLessThanOrEqual(width);
        // The IMAGES column starts in the same terminal cell on every row.
        if (starts.length > 2) expect(cells(line)[starts[2]!], line).toMatch(/[A-Za-z]/);
      }
    }
    const wide = (await render(items, 40)).find((l) => l.startsWith('Wide'))!;
    expect(wide).toMatch(/…/); // cut by width (2 cells a character), not by character count
    expect(wide).not.toMatch(/\uFFFD/);
  });

  it('cli-table3 draws a terminal-sized table exactly as the direct join draws a long one', async () => {
    const item = (i: number): ExerciseSummary => ({
      id: `Id_${String(i).padStart(5, '0')}`,
      name: i % 2 ? '杠铃卧推 wide' : 'Bench Press',
      aliases: ['a', 'b'],
    });
    const drawn = await renderTable(
      Array.from({ length: CLI_TABLE3_MAX_ROWS - 1 }, (_, i) => item(i)),
      LIST_TABLE_COLUMNS,
      { width: 40 },
    );
    const joined = await renderTable(
      Array.from({ length: CLI_TABLE3_MAX_ROWS + 1 }, (_, i) => item(i)),
      LIST_TABLE_COLUMNS,
      { width: 40 },
    );
    const lines = drawn.trimEnd().split('\n');
    expect(lines).toHaveLength(CLI_TABLE3_MAX_ROWS);
    expect(joined.split('\n').slice(0, lines.length)).toEqual(lines);
  });

  it('renders 130,000 rows without overflowing the stack', async () => {
    const many: ExerciseSummary[] = Array.from({ length: 130_000 }, (_, i) => ({ id: `Id_${i}`, name: `Name ${i}`, aliases: ['a'] }));
    const text = await renderTable(many, LIST_TABLE_COLUMNS, { width: 80 });
    expect(text.split('\n')).toHaveLength(130_002); // header, rows, final newline
  });
});

describe('layoutColumns', () => {
  const sizing = [
    { fixed: true, minWidth: 0, shrinkOrder: 0 },
    { minWidth: 16, shrinkOrder: 2 },
    { minWidth: 12, dropOrder: 1, shrinkOrder: 1 },
  ];
  it('shrinks aliases before the name, and the id never', () => {
    const layout = layoutColumns(sizing, [20, 30, 30], [false, false, false], 70);
    expect(layout.shown).toEqual([0, 1, 2]);
    expect(layout.widths[0]).toBe(20);
    expect(layout.widths.reduce((a, b) => a + b, 0) + 4).toBe(70);
    expect(layout.widths[1]).toBeGreaterThan(layout.widths[2]!);
  });
  it('drops an optional column rather than squeezing it under its minimum', () => {
    expect(layoutColumns(sizing, [20, 30, 30], [false, false, false], 45).shown).toEqual([0, 1]);
  });
  it('leaves out columns with no value in any row', () => {
    expect(layoutColumns(sizing, [20, 30, 7], [false, false, true], 200).shown).toEqual([0, 1]);
  });
});
