/** Terminal tables as gh prints them: borderless columns sized in terminal cells, the id never cut; when narrow, optional columns go, then others shrink with `…`. */
import type { ChalkInstance } from 'chalk';
import type { TableColumn } from './fields.js';
import { loadMeasure } from './width.js';
import { oneLine } from '../util/text.js';
import { loadCliTable3 } from '../vendor/load.js';

/** Blanks between two columns. */
export const GAP = 2;
/** Narrowest a shrunk column gets (`ab…`); below this it is left out. */
const HARD_MIN = 3;

type Sizing = Pick<TableColumn<unknown>, 'fixed' | 'minWidth' | 'dropOrder' | 'shrinkOrder'>;

/** Which columns to show and how wide, for `width` cells: `natural[i]` is column i's widest cell, `empty[i]` that no row has a value. */
export function layoutColumns(
  sizing: readonly Sizing[],
  natural: readonly number[],
  empty: readonly boolean[],
  width: number,
): { shown: number[]; widths: number[] } {
  let shown = sizing.map((_, i) => i).filter((i) => sizing[i]!.fixed || !empty[i]);
  const comfortable = (i: number): number => (sizing[i]!.fixed ? natural[i]! : Math.min(natural[i]!, sizing[i]!.minWidth));
  const total = (cols: number[], w: (i: number) => number): number => cols.reduce((sum, i) => sum + w(i), 0) + GAP * Math.max(0, cols.length - 1);

  // Optional columns leave, lowest dropOrder first, while even their minimum widths do not fit.
  const droppable = shown.filter((i) => sizing[i]!.dropOrder !== undefined).sort((a, b) => sizing[a]!.dropOrder! - sizing[b]!.dropOrder!);
  for (const i of droppable) {
    if (total(shown, comfortable) <= width) break;
    shown = shown.filter((j) => j !== i);
  }

  const widths = new Map(shown.map((i) => [i, natural[i]!]));
  let over = total(shown, (i) => widths.get(i)!) - width;
  const order = shown.filter((i) => !sizing[i]!.fixed).sort((a, b) => sizing[a]!.shrinkOrder - sizing[b]!.shrinkOrder);
  /** Takes cells from the widest columns of each shrink group in turn, down to `floor(i)`. */
  const shrink = (floor: (i: number) => number): void => {
    for (let g = 0; g < order.length && over > 0;) {
      const rank = sizing[order[g]!]!.shrinkOrder;
      const group = order.filter((i) => sizing[i]!.shrinkOrder === rank);
      g += group.length;
      while (over > 0) {
        let widest: number | undefined;
        for (const i of group) if (widths.get(i)! > floor(i) && (widest === undefined || widths.get(i)! > widths.get(widest)!)) widest = i;
        if (widest === undefined) break;
        // Down to the next widest in one step (a 10,000-cell alias is one step); equal columns take turns.
        const w = widths.get(widest)!;
        let next = floor(widest);
        let tie = false;
        for (const i of group) {
          if (i === widest) continue;
          const other = widths.get(i)!;
          if (other === w) tie = true;
          else if (other < w && other > next) next = other;
        }
        const cut = tie ? 1 : Math.min(over, w - next);
        widths.set(widest, widths.get(widest)! - cut);
        over -= cut;
      }
    }
  };
  shrink(comfortable); // first to each column's comfortable minimum…
  shrink(() => HARD_MIN); // …then further, when the id leaves that little room
  if (over > 0) {
    // Still too wide (a very long id on a very narrow terminal): the id alone, whole.
    shown = shown.filter((i) => sizing[i]!.fixed);
  }
  return { shown, widths: shown.map((i) => widths.get(i)!) };
}

export async function renderTable<T>(
  items: readonly T[],
  columns: ReadonlyArray<TableColumn<T>>,
  options: { width: number; chalk?: ChalkInstance | undefined },
): Promise<string> {
  const measure = await loadMeasure();
  const chalk = options.chalk;
  const rows = items.map((item) => columns.map((c) => oneLine(c.value(item))));
  // Loops, not Math.max(...cells): a spread of 120,000 arguments overflows the stack.
  const natural = columns.map((c) => measure.width(c.title));
  const empty = columns.map(() => true);
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const cell = row[i]!;
      if (cell === '') continue;
      empty[i] = false;
      const w = measure.width(cell);
      if (w > natural[i]!) natural[i] = w;
    }
  }
  const { shown, widths } = layoutColumns(columns, natural, empty, options.width);
  /** A row's shown cells, cut and padded by our measure (cli-table3's is older). */
  const cut = (cells: readonly string[], paint?: (s: string) => string): string[] =>
    shown.map((col, k) => {
      const cell = columns[col]!.fixed ? cells[col]! : measure.truncate(cells[col]!, widths[k]!);
      const padded = cell + ' '.repeat(Math.max(0, widths[k]! - measure.width(cell)));
      return paint ? paint(padded) : padded;
    });
  const titles = columns.map((c) => c.title);
  const lines = [cut(titles, chalk?.bold)];
  for (const row of rows) lines.push(cut(row));
  return `${(await drawRows(lines)).map((l) => l.trimEnd()).join('\n')}\n`;
}

/** Rows handed to cli-table3 (it measures every cell several times); a longer table's cells are joined directly. */
export const CLI_TABLE3_MAX_ROWS = 1000;

/** Cut and padded cells side by side, the gap between them. */
async function drawRows(lines: string[][]): Promise<string[]> {
  if (lines.length > CLI_TABLE3_MAX_ROWS) return lines.map((cells) => cells.join(NO_BORDER.middle));
  // cli-table3 only lays cells side by side: the layout is ours.
  const Table = await loadCliTable3();
  const table = new Table({ chars: NO_BORDER, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true }, wordWrap: false });
  for (const cells of lines) table.push(cells);
  return table.toString().split('\n');
}

/** Nothing but the gap between columns: no borders, no padding, no colours of its own. */
const BORDER_PARTS = 'top top-mid top-left top-right bottom bottom-mid bottom-left bottom-right left left-mid mid mid-mid right right-mid'.split(' ');
const NO_BORDER = { ...Object.fromEntries(BORDER_PARTS.map((part) => [part, ''])), middle: ' '.repeat(GAP) };
