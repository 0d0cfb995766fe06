/**
 * The files a proxy reads its secrets from: the clients' keys (`--keys-file`, one `key:plan` a
 * line) and the upstream key (`--upstream-key-file`). Both must be readable by their owner
 * only (mode 0600 or stricter), as ssh insists for its keys: a key readable by the group or
 * the world has already leaked. A file never echoes a key back in an error message.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { Plan } from '../server/records.js';

export const PLANS: readonly Plan[] = ['free', 'premium'];

/** The text of `path`, refused unless it is a regular file that only its owner may read or write. */
export function readOwnerOnlyFile(path: string, flag: string): string {
  let mode: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new UsageError(`${flag} ${path} is not a regular file.`);
    mode = info.mode;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flag} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new UsageError(
      `${flag} ${path} may be read by others (mode ${(mode & 0o777).toString(8)}); it holds keys, so it must be readable by its owner only.`,
      {
        hint: `Run: chmod 600 ${path}`,
      },
    );
  }
  return readFileSync(path, 'utf8');
}

/**
 * `key:plan` lines; blank lines and lines starting with `#` are skipped; the key may hold
 * colons (the plan is after the last one). A bad line is named by its number, never quoted.
 */
export function parseKeysFile(text: string, path: string): Record<string, Plan> {
  const keys: Record<string, Plan> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const at = line.lastIndexOf(':');
    const key = at === -1 ? '' : line.slice(0, at).trim();
    const plan = at === -1 ? '' : line.slice(at + 1).trim();
    if (key === '' || !(PLANS as readonly string[]).includes(plan)) {
      throw new UsageError(`${path}:${i + 1}: expected KEY:PLAN with PLAN one of ${PLANS.join(', ')}.`);
    }
    keys[key] = plan as Plan;
  });
  if (Object.keys(keys).length === 0) throw new UsageError(`${path} holds no key: write one KEY:PLAN a line.`);
  return keys;
}

/** The first non-blank line of an upstream key file. */
export function parseKeyFile(text: string, path: string): string {
  const key = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (!key) throw new UsageError(`${path} holds no key.`);
  return key;
}
