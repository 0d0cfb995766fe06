/** The `.part` a download stopped midway leaves beside its file: how much it holds, for the summary and `--dry-run`. */
import { lstat } from 'node:fs/promises';
import { partPath } from './download/file-sink.js';

/** The bytes kept in the `.part` of `path`: undefined when there is none, or it is empty or not a plain file (never resumed from). */
export async function partBytes(path: string): Promise<number | undefined> {
  const info = await lstat(partPath(path)).catch(() => undefined);
  return info?.isFile() && info.size > 0 ? info.size : undefined;
}
