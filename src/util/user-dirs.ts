/**
 * The user directories of the CLI, computed from a given environment (the Context's, not
 * process.env) so a test or an embedding can point them anywhere. The same places env-paths
 * gives for `envPaths('exercises', { suffix: '' })`: XDG_CONFIG_HOME / XDG_CACHE_HOME on
 * Linux, ~/Library on macOS, %APPDATA% / %LOCALAPPDATA% on Windows. At the bottom of the
 * layers: config/ keeps its file under the config directory, cache/ its store under the cache one.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The environment a run reads (the Context's): variable name to value. */
export type Env = Readonly<Record<string, string | undefined>>;

const PROJECT = 'exercises';

export interface UserDirs {
  config: string;
  cache: string;
}

/** The home directory the environment names (HOME, or USERPROFILE on Windows); the OS's answer without one. */
function homeOf(env: Env, platform: NodeJS.Platform): string {
  const named = platform === 'win32' ? env.USERPROFILE : env.HOME;
  return named !== undefined && named !== '' ? named : homedir();
}

export function userDirs(env: Env, platform: NodeJS.Platform = process.platform): UserDirs {
  const home = homeOf(env, platform);
  if (platform === 'darwin') {
    return { config: join(home, 'Library', 'Preferences', PROJECT), cache: join(home, 'Library', 'Caches', PROJECT) };
  }
  if (platform === 'win32') {
    const appData = env.APPDATA || join(home, 'AppData', 'Roaming');
    const localAppData = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    return { config: join(appData, PROJECT, 'Config'), cache: join(localAppData, PROJECT, 'Cache') };
  }
  return {
    config: join(env.XDG_CONFIG_HOME || join(home, '.config'), PROJECT),
    cache: join(env.XDG_CACHE_HOME || join(home, '.cache'), PROJECT),
  };
}
