/** A path as the person gave it: relative when what they typed was (`media/Plank/start.png`), else absolute. */
import { isAbsolute, relative } from 'node:path';

export function shownPath(absolute: string, given: string | undefined): string {
  if (given !== undefined && isAbsolute(given)) return absolute;
  const rel = relative(process.cwd(), absolute);
  // Another drive (Windows) has no relative path.
  if (isAbsolute(rel)) return absolute;
  return rel === '' ? '.' : rel;
}
