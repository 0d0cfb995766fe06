/**
 * Where the cache layer keeps its files: under the user cache directory, the one
 * env-paths('exercises', { suffix: '' }).cache names (the launcher keeps V8's code
 * cache there too, bin/startup/private-files.js). Computed from an environment given by the caller rather than process.env, so a
 * context (or a test) decides which HOME and XDG_CACHE_HOME count.
 */
import { join } from 'node:path';
import { type Env, userDirs } from '../config/parsers.js';

export type EnvVars = Env;

/** The user cache directory (src/config/parsers.ts userDirs, env-paths' rule), with HOME and XDG_CACHE_HOME read from `env`. */
export function cacheRoot(env: EnvVars, platform: NodeJS.Platform = process.platform): string {
  return userDirs(env, platform).cache;
}

/** The cacache store of JSON answers and full records. `cache clear` removes this directory only. */
export function httpCacheDir(root: string): string {
  return join(root, 'http');
}

/** The request ledger: kept beside the store, never removed by `cache clear` (it is the quota count). */
export function ledgerPath(root: string): string {
  return join(root, 'ledger.json');
}
