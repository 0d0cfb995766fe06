/**
 * Calls back once a file has changed and settled: its directory is watched, not the file, as an
 * editor or `serve keys` puts a new file in place by a rename, which a watch on the old file
 * would miss.
 */
import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Calls `changed` `settleMs` after the last change to `path` (written, replaced, removed); the returned function stops watching. */
export function watchFile(path: string, settleMs: number, changed: () => void): () => void {
  const name = basename(path);
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
    // Some platforms do not say which file changed: then any change counts.
    if (file !== null && file.toString() !== name) return;
    clearTimeout(timer);
    timer = setTimeout(changed, settleMs);
  });
  // The directory removed or unreadable: the file can still be reread on a signal.
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
