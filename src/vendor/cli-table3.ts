/**
 * cli-table3, which lays the cells of a table side by side (src/output/table.ts). Only the
 * table format needs it (output to a terminal, or --format table): ~45 KB bundled, which
 * `--help`, the JSON formats and every pipe (tsv) never load.
 */
import type Table from 'cli-table3';

export async function loadCliTable3(): Promise<typeof Table> {
  return (await import('cli-table3')).default;
}
