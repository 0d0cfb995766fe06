/** Shared by the cache tests: a walk of every file under a directory, and the built modules for child processes (temp directories: ../helpers/temp.ts). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Temp directories come from the one helper; re-exported for the suites that import them from here. */

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files under `dir` whose bytes contain `text`. */
export function filesContaining(dir: string, text: string): string[] {
  return filesUnder(dir).filter((file) => readFileSync(file).includes(text));
}

/** A module of the built tree (dist/), as child processes load it; `npm test` builds first. */
export function builtModule(relative: string): string {
  const path = fileURLToPath(new URL(`../../dist/${relative}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first (npm test does).`);
  return path;
}
