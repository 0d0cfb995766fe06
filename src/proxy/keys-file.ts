/**
 * A keys file edited as htpasswd edits its file (`serve keys add|list|remove`): a strong key made
 * here, lines added or removed by label, the rest of the file (comments, other keys) kept as it
 * was, and the file replaced whole, readable by its owner only, so a proxy reading it sees the old
 * file or the new one, never half of one. Each edit holds the file's lock, so two at once both land.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { NotFoundError, UsageError } from '../errors.js';
import { LockWaitError, lockFile } from '../util/file-lock.js';
import { replaceFileSync } from '../util/write-all.js';
import { type ClientKey, labelProblem, parseClientKey } from './client-keys.js';
import { parseKeysFile, readOwnerOnlyFile } from './secret-files.js';
import type { Plan } from '../server/records.js';

/** A keys file's mode: its owner's alone (secret-files.ts refuses any other). */
const KEYS_FILE_MODE = 0o600;

/** A new client key: 24 random bytes (192 bits) in hex, safe in a URL, a header, a shell and a flag value (never a leading `-`). */
export function newClientKey(): string {
  return randomBytes(24).toString('hex');
}

/** The keys file's text, '' when there is none yet; refused when others may read it. */
function readKeysText(path: string): string {
  return existsSync(path) ? readOwnerOnlyFile(path, '--keys-file') : '';
}

/** The keys in `path` with their plans and labels, in the file's order; none when there is no file. */
export function listKeys(path: string): Array<[key: string, client: ClientKey]> {
  const text = readKeysText(path);
  return text === '' ? [] : Object.entries(parseKeysFile(text, path));
}

/** How long an edit waits for another one, and when a lock left by a killed edit is taken over. */
const EDIT_WAIT_MS = 10_000;

/** Runs `edit` (read, change, replace) holding the keys file's lock. */
async function editing<T>(path: string, edit: () => T): Promise<T> {
  const { lock } = await lockFile(path, { waitMs: EDIT_WAIT_MS, staleMs: EDIT_WAIT_MS }).catch((err: unknown) => {
    if (err instanceof LockWaitError) throw new UsageError(`Another edit of ${path} held it for ${EDIT_WAIT_MS / 1000} s; try again.`);
    throw err;
  });
  try {
    return edit();
  } finally {
    await lock.release();
  }
}

/** Whether a line of a keys file is a key labelled `label`. */
function labelled(line: string, label: string): boolean {
  const parsed = parseClientKey(line.trim());
  return !line.trim().startsWith('#') && 'client' in parsed && parsed.client.label === label;
}

/** Adds a new key for `label` with `plan` to `path` (created when missing) and returns it; a label already there is refused. */
export function addKey(path: string, label: string, plan: Plan): Promise<string> {
  return editing(path, () => addKeyNow(path, label, plan));
}

function addKeyNow(path: string, label: string, plan: Plan): string {
  const text = readKeysText(path);
  const key = newClientKey();
  // A label is the last field of its line: a colon would split it, spaces around it would be trimmed away.
  const problem = label.includes(':') || label.trim() !== label ? 'a label holds no colon and no space at either end' : labelProblem(label, key);
  if (problem) throw new UsageError(`Cannot add ${JSON.stringify(label)}: ${problem}.`);
  if (text.split(/\r?\n/).some((line) => labelled(line, label))) {
    throw new UsageError(`${path} already has a key labelled ${label}.`, {
      hint: `To give ${label} a new key: exercises serve keys remove ${label} --keys-file ${path}, then add it again.`,
    });
  }
  const next = `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${key}:${plan}:${label}\n`;
  // The whole file as a proxy would read it: a file already broken is said now, not at the proxy's next reload.
  parseKeysFile(next, path);
  replaceFileSync(path, [next], KEYS_FILE_MODE);
  return key;
}

/** Removes the keys labelled `label` from `path`; how many. None is a NotFoundError (exit 4). */
export function removeKey(path: string, label: string): Promise<number> {
  return editing(path, () => removeKeyNow(path, label));
}

function removeKeyNow(path: string, label: string): number {
  const lines = readKeysText(path).split(/(?<=\n)/);
  const kept = lines.filter((line) => !labelled(line, label));
  if (kept.length === lines.length) throw new NotFoundError(`${existsSync(path) ? path : `${path} (no such file)`} has no key labelled ${label}.`);
  replaceFileSync(path, kept, KEYS_FILE_MODE);
  return lines.length - kept.length;
}
