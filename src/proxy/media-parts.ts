/**
 * The `.part` files of media fills, one per fill (`<file>.<12 hex>.part`), so proxies sharing a directory
 * never write into each other's. A fill stopped by shutdown leaves a `.resume` note (validator, length) for
 * the next fill to ask only for the rest; parts untouched for a day are removed at start.
 */
import { randomBytes } from 'node:crypto';
import { lstat, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MAGIC_BYTES, MEDIA } from '../catalogue/media.js';
import { firstValue } from '../server/http-error.js';
import type { StreamResponse } from './upstream.js';

const PART_NAME = /\.[0-9a-f]{12}\.part(\.resume)?$/;
const RESUME_SUFFIX = '.resume';

/** A part untouched this long was left by a fill that ended. */
export const STALE_PART_MS = 24 * 60 * 60 * 1000;

/** What resuming a part needs: the upstream's validator of the file (for If-Range) and its whole length. */
export interface ResumeNote {
  validator: string;
  length: number;
}

/** A part taken over for resuming: its new name and the bytes it holds. */
export interface ClaimedPart extends ResumeNote {
  path: string;
  size: number;
}

/** A new part of `dest`, named for this fill alone. */
export function partName(dest: string): string {
  return `${dest}.${randomBytes(6).toString('hex')}.part`;
}

/** The validator If-Range may carry: a strong ETag, else Last-Modified; none: no resume. */
export function validatorOf(res: StreamResponse): string | undefined {
  const etag = firstValue(res.headers.etag);
  return etag?.startsWith('"') ? etag : firstValue(res.headers['last-modified']);
}

function readNote(text: string): ResumeNote | undefined {
  try {
    const note = JSON.parse(text) as Partial<ResumeNote>;
    if (typeof note.validator === 'string' && /^[\x20-\x7e]{1,1024}$/.test(note.validator) && Number.isSafeInteger(note.length) && note.length! > 0) {
      return { validator: note.validator, length: note.length! };
    }
  } catch {
    // not a note of ours
  }
  return undefined;
}

/** Whether a 206 continues `part`: its Content-Range is the rest of the same file. */
export function continues(res: StreamResponse, part: ClaimedPart): boolean {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(firstValue(res.headers['content-range']) ?? '');
  return m !== null && Number(m[1]) === part.size && Number(m[2]) === part.length - 1 && Number(m[3]) === part.length;
}

/** Directory names or regular file names in `dir`; none when unreadable. */
async function namesIn(dir: string, kind: 'directory' | 'file'): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => (kind === 'file' ? e.isFile() : e.isDirectory())).map((e) => e.name);
}

/** The newest resumable part of `dest`, renamed to a name of ours (the first to rename it has it); undefined when none. */
export async function claimPart(dest: string): Promise<ClaimedPart | undefined> {
  const prefix = `${basename(dest)}.`;
  const dir = dirname(dest);
  for (const name of await namesIn(dir, 'file')) {
    if (!name.startsWith(prefix) || !name.endsWith(RESUME_SUFFIX) || !PART_NAME.test(name)) continue;
    const notePath = join(dir, name);
    const note = readNote(await readFile(notePath, 'utf8').catch(() => ''));
    const path = partName(dest);
    const taken = await rename(notePath.slice(0, -RESUME_SUFFIX.length), path).then(
      () => true,
      () => false, // taken by another fill, or gone
    );
    await rm(notePath, { force: true });
    if (!taken) continue;
    const size = (await lstat(path).catch(() => undefined))?.size ?? 0;
    // Too short for the magic, or already whole: not worth a Range.
    if (note && size >= MAGIC_BYTES && size < note.length) return { ...note, path, size };
    await rm(path, { force: true });
  }
  return undefined;
}

/** Writes the resume note of a part whose writer has stopped: another fill may take it from now on. */
export async function leaveForResume(part: string, note: ResumeNote, log?: (line: string) => void): Promise<void> {
  await writeFile(part + RESUME_SUFFIX, JSON.stringify(note), { mode: 0o644 }).catch((err: Error) =>
    log?.(`media: cannot note ${part} for resuming: ${err.message}`),
  );
}

/** Removes our parts under `root` untouched for a day, at start; anything else is left alone. */
export async function removeStaleParts(root: string, log?: (line: string) => void, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const { folder } of Object.values(MEDIA)) {
    for (const id of await namesIn(join(root, folder), 'directory')) {
      const premium = join(root, folder, id, 'premium');
      for (const name of (await namesIn(premium, 'file')).filter((n) => PART_NAME.test(n))) {
        const path = join(premium, name);
        try {
          const info = await lstat(path);
          if (!info.isFile() || now - info.mtimeMs < STALE_PART_MS) continue;
          await rm(path, { force: true });
          removed += 1;
        } catch (err) {
          log?.(`media: cannot remove the stale ${path}: ${(err as Error).message}`);
        }
      }
    }
  }
  if (removed > 0) log?.(`media: removed ${removed} stale .part file(s) left by earlier fills.`);
  return removed;
}
