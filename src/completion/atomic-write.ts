/**
 * Replacing a small file so that no reader ever sees half of it: written aside, then renamed
 * into place. Private whatever the umask (directories 0700, the file 0600): the completion
 * index lists what the user looked at.
 */
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    writeFileSync(partial, text, { mode: 0o600, flag: 'wx' });
    renameSync(partial, file);
  } catch (err) {
    try {
      unlinkSync(partial);
    } catch {
      // never written
    }
    throw err;
  }
}
