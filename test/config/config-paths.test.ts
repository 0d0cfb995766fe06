/** The config and cache directories follow the environment given, in the places env-paths gives. */
import envPaths from 'env-paths';
import { describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/cache/store-files.js';
import { userDirs, configPath } from '../../src/config/parsers.js';

describe('user directories', () => {
  it('are where env-paths puts them for the same environment', () => {
    const expected = envPaths('exercises', { suffix: '' });
    expect(userDirs(process.env).config).toBe(expected.config);
    expect(cacheRoot(process.env)).toBe(expected.cache);
  });

  it('follow XDG_CONFIG_HOME / XDG_CACHE_HOME, else HOME, on Linux', () => {
    expect(userDirs({ HOME: '/h', XDG_CONFIG_HOME: '/x/conf', XDG_CACHE_HOME: '/x/cache' }, 'linux')).toEqual({
      config: '/x/conf/exercises',
      cache: '/x/cache/exercises',
    });
    expect(userDirs({ HOME: '/h', XDG_CONFIG_HOME: '' }, 'linux')).toEqual({ config: '/h/.config/exercises', cache: '/h/.cache/exercises' });
    expect(configPath({ HOME: '/h' })).toBe('/h/.config/exercises/config.json');
  });

  it('use ~/Library on macOS and %APPDATA% / %LOCALAPPDATA% on Windows', () => {
    expect(userDirs({ HOME: '/Users/a' }, 'darwin')).toEqual({ config: '/Users/a/Library/Preferences/exercises', cache: '/Users/a/Library/Caches/exercises' });
    const win = userDirs({ USERPROFILE: 'C:/u', APPDATA: 'C:/roam', LOCALAPPDATA: 'C:/local' }, 'win32');
    expect(win.config.replace(/\\/g, '/')).toBe('C:/roam/exercises/Config');
    expect(win.cache.replace(/\\/g, '/')).toBe('C:/local/exercises/Cache');
  });
});
