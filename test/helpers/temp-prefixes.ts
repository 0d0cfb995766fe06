/**
 * The names the suite gives what it makes in a temp dir, so the end-of-run check
 * (test/setup/global.ts) can tell a leak of ours from another program's file: every prefix a
 * test hands tempDir() is recorded under the run's root as it is first used (workers are
 * separate processes, so a file each), and a name is ours when it is such a prefix and the six
 * characters mkdtemp adds. Pure Node, no vitest: the global setup reads it in vitest's own process.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Shorter prefixes say too little to claim a name by them (`a-` would take other programs' files). */
const MIN_LENGTH = 3;

const recordsDir = (root: string) => join(root, '.prefixes');
const recorded = new Set<string>();

/** Notes that the suite makes names starting with `prefix` (once per process and root). */
export function recordPrefix(root: string, prefix: string): void {
  const record = join(recordsDir(root), encodeURIComponent(prefix));
  if (recorded.has(record) || prefix.length < MIN_LENGTH) return;
  mkdirSync(recordsDir(root), { recursive: true });
  writeFileSync(record, '');
  recorded.add(record);
}

/** Every prefix recorded under `root`. */
export function prefixesUsed(root: string): string[] {
  try {
    return readdirSync(recordsDir(root)).map(decodeURIComponent);
  } catch {
    return [];
  }
}

/** What mkdtemp adds to a prefix (libuv: six of these). */
const MKDTEMP_SUFFIX = /^[A-Za-z0-9]{6}$/;

/** True when `name` is what mkdtemp makes of one of `prefixes` (`exercises-home-` → `exercises-home-Ab12Cd`). */
export function madeWithPrefix(name: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => name.startsWith(prefix) && MKDTEMP_SUFFIX.test(name.slice(prefix.length)));
}
