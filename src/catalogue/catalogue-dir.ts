/**
 * Whether a directory can be served as a catalogue (docs/design.md "Catalogue directory"): it
 * exists and holds exercises.jsonl. Synchronous and cheap: `config set catalogue` and the
 * connection check it before anything starts; the server validates every line itself.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CATALOGUE_FILE = 'exercises.jsonl';

/** A sentence naming what is wrong with `dir`, or undefined when it looks like a catalogue. */
export function catalogueDirProblem(dir: string): string | undefined {
  const root = resolve(dir);
  try {
    if (!statSync(root).isDirectory()) return `${root} is not a directory`;
  } catch {
    return `No catalogue directory at ${root}`;
  }
  try {
    if (!statSync(join(root, CATALOGUE_FILE)).isFile()) return `${join(root, CATALOGUE_FILE)} is not a file`;
  } catch {
    return `${root} has no ${CATALOGUE_FILE}, so it is not a catalogue directory`;
  }
  return undefined;
}
