/** Terminal tables (cli-table3, borderless), sized to the terminal width. */
import type { ChalkInstance } from 'chalk';
import type { Column } from './columns.js';
import { oneLine } from './write.js';

const GAP = 2;
const MIN_WIDTH = 6;

function width(text: string): number {
  return [...text].length;
}

/** Natural widths, shrinking the widest column until the row fits the terminal. */
export function fitWidths(natural: number[], columns: number): number[] {
  const widths = [...natural];
  const budget = Math.max(columns - GAP * (widths.length - 1), MIN_WIDTH * widths.length);
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    let widest = 0;
    widths.forEach((w, i) => {
      if (w > widths[widest]!) widest = i;
    });
    if (widths[widest]! <= MIN_WIDTH) break;
    widths[widest]!--;
    total--;
  }
  return widths;
}

export async function renderTable<T>(
  items: readonly T[],
  columns: ReadonlyArray<Column<T>>,
  options: { width: number; /** Colour, decided by the caller's context (chalkFor); none when undefined. */ chalk?: ChalkInstance | undefined },
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const { chalk } = options;
  const rows = items.map((item) => columns.map((c) => oneLine(c.value(item))));
  // Drop columns that are empty in every row (e.g. ALIASES on a catalogue without aliases).
  const keep = columns.map((_, i) => i === 0 || rows.some((r) => r[i] !== ''));
  const heads = columns.filter((_, i) => keep[i]).map((c) => c.title);
  const body = rows.map((r) => r.filter((_, i) => keep[i]));
  const natural = heads.map((h, i) => Math.max(width(h), ...body.map((r) => width(r[i]!))));
  const widths = fitWidths(natural, options.width);
  const table = new Table({
    head: heads.map((h) => (chalk ? chalk.bold(h) : h)),
    colWidths: widths.map((w, i) => w + (i < widths.length - 1 ? GAP : 0)),
    wordWrap: false,
    truncate: '…',
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  for (const row of body) table.push(row);
  // cli-table3 pads the last column; terminals do not need trailing blanks.
  return `${table.toString().split('\n').map((l) => l.trimEnd()).join('\n')}\n`;
}
