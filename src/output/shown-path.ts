/**
 * A path as the person gave it: relative to the working directory when what they typed was
 * relative (`--dir media` shows `media/Plank/start.png`), absolute when they typed it so.
 * The code works with absolute paths throughout; only what is printed changes.
 */
import { isAbsolute, relative } from 'node:path';

/** `absolute` shown relative to the working directory unless `given` (the user's text) was absolute. */
export function shownPath(absolute: string, given: string | undefined): string {
  if (given !== undefined && isAbsolute(given)) return absolute;
  const rel = relative(process.cwd(), absolute);
  // Another drive (Windows) has no relative path.
  if (isAbsolute(rel)) return absolute;
  return rel === '' ? '.' : rel;
}
