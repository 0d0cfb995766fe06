/** Where the stored config lives: the user config directory (src/util/user-dirs.ts) of the given environment. */
import { type Env, userDirs } from '../util/user-dirs.js';

export type { Env };
export { userDirs };

export function configDir(env: Env): string {
  return userDirs(env).config;
}
