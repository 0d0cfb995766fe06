/**
 * Where the cache layer keeps its files: under the user cache directory, the one
 * env-paths('exercises', { suffix: '' }).cache names (bin/exercises.js keeps V8's code cache
 * there too). Computed from an environment given by the caller rather than process.env, so a
 * context (or a test) decides which HOME and XDG_CACHE_HOME count.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

const PROJECT = 'exercises';

export type EnvVars = Readonly<Record<string, string | undefined>>;

/** env-paths' cache rule for each platform, with HOME (USERPROFILE on Windows) read from `env`. */
export function cacheRoot(env: EnvVars, platform: NodeJS.Platform = process.platform): string {
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', PROJECT);
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), PROJECT, 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), PROJECT);
}

/** The cacache store of JSON answers and full records. `cache clear` removes this directory only. */
export function httpCacheDir(root: string): string {
  return join(root, 'http');
}

/** The request ledger: kept beside the store, never removed by `cache clear` (it is the quota count). */
export function ledgerPath(root: string): string {
  return join(root, 'ledger.json');
}
