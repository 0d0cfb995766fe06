/**
 * Calls back once a file has changed and settled: its directory is watched, not the file, as an
 * editor or `serve keys` puts a new file in place by a rename, which a watch on the old file
 * would miss.
 */
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { reasonOf } from './write-all.js';

/**
 * Calls `changed` `settleMs` after the last change to `path` (written, replaced, removed); the
 * returned function stops watching. A directory that cannot be watched (gone, no watches left)
 * is told to `unwatched` with the reason, and nothing is watched.
 */
export function watchFile(path: string, settleMs: number, changed: () => void, unwatched: (reason: string) => void): () => void {
  const name = basename(path);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
      // Some platforms do not say which file changed: then any change counts.
      if (file !== null && file.toString() !== name) return;
      clearTimeout(timer);
      timer = setTimeout(changed, settleMs);
    });
  } catch (err) {
    unwatched(reasonOf(err));
    return () => {};
  }
  // The directory removed or unreadable: the file can still be reread on a signal.
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
