/**
 * Writing the stored settings (`config set|unset`, `auth login|logout`): the JSON file in the
 * user config directory, mode 0600 because it may hold the API key, through conf (loaded
 * lazily), which writes atomically. Reading is a plain file read (parsers.ts readStoredConfig),
 * so commands that only need the key start fast.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { type Env, type StoredConfig, configDir, configPath, readStoredConfig } from './parsers.js';
import { loadConf } from '../vendor/conf.js';

const FILE_MODE = 0o600;
/** The directory holds the key too: private whatever the umask. */
const DIR_MODE = 0o700;

export interface ConfigWriter {
  set(key: string, value: string | number | boolean): void;
  delete(key: string): void;
}

/**
 * Makes the config directory 0700 before conf writes into it: conf would create it with the
 * process umask (0777 under umask 000). An existing one is tightened too, as the file is.
 */
function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  chmodSync(dir, DIR_MODE);
}

/**
 * Refuses a config file that is a symbolic link (or anything but a plain file): a write would
 * go through it to wherever it points, and the key with it.
 */
function assertPlainFile(path: string): void {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new UsageError(`Cannot read the config file ${path}: ${(err as Error).message}.`);
  }
  if (stats.isSymbolicLink() || !stats.isFile()) {
    throw new UsageError(`The config file ${path} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; refusing to write through it.`, {
      hint: 'Replace it with a regular file (or delete it), then run the command again.',
    });
  }
}

/** A conf instance over the same file, for writes. */
export async function openConfigWriter(env: Env): Promise<ConfigWriter> {
  assertPlainFile(configPath(env));
  readStoredConfig(env); // refuse to overwrite a file we cannot read
  ensurePrivateDir(configDir(env));
  const { default: Conf } = await loadConf();
  const conf = new Conf<StoredConfig>({
    projectName: 'exercises',
    projectSuffix: '',
    // Given a directory, conf never asks env-paths (which would read process.env).
    cwd: configDir(env),
    configName: 'config',
    configFileMode: FILE_MODE,
    accessPropertiesByDotNotation: false,
  });
  // conf writes new files with configFileMode; tighten one created earlier by hand, too.
  const tighten = (): void => {
    try {
      chmodSync(conf.path, FILE_MODE);
    } catch {
      // nothing written yet
    }
  };
  return {
    set(key, value) {
      conf.set(key, value);
      tighten();
    },
    delete(key) {
      conf.delete(key);
      tighten();
    },
  };
}
