/** Plain rows in aligned columns for a terminal (`download --dry-run`); a pipe gets tsv instead. */
import { oneLine } from '../util/text.js';

export function alignedRows(rows: ReadonlyArray<readonly string[]>): string {
  const clean = rows.map((r) => r.map((c) => oneLine(c)));
  const widths: number[] = [];
  for (const row of clean) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return clean.map((row) => `${row.map((c, i) => (i === row.length - 1 ? c : c + ' '.repeat(widths[i]! - [...c].length))).join('  ')}\n`).join('');
}
