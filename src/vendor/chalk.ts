/**
 * chalk, the colours of tables, JSON and messages (src/output/colour.ts chalkFor). Loaded only when
 * colour is on, that is output to a terminal without NO_COLOR: ~13 KB bundled plus its
 * terminal probing, which a pipe, `--help` and `--format json` into a file never need.
 */
export function loadChalk(): Promise<typeof import('chalk')> {
  return import('chalk');
}
