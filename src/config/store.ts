/** Writing the stored settings through conf (loaded lazily), mode 0600 as the file may hold the API key. */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { dirname } from 'node:path';
import { type Env, type StoredConfig, configPath, readStoredConfig } from './parsers.js';
import { loadConf } from '../vendor/load.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export interface ConfigWriter {
  set(key: string, value: string | number | boolean): void;
  delete(key: string): void;
}

/** Refuses a config file that is a link or not a plain file: the key would be written through it. */
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

export async function openConfigWriter(env: Env): Promise<ConfigWriter> {
  const dir = dirname(configPath(env));
  assertPlainFile(configPath(env));
  readStoredConfig(env); // refuses a file we cannot read
  // Private whatever the umask (conf would use it), as the directory holds the key too.
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  chmodSync(dir, DIR_MODE);
  const { default: Conf } = await loadConf();
  const conf = new Conf<StoredConfig>({
    projectName: 'exercises',
    projectSuffix: '',
    // Given a directory, conf never reads process.env.
    cwd: dir,
    configName: 'config',
    configFileMode: FILE_MODE,
    accessPropertiesByDotNotation: false,
  });
  // Also tightens a file created earlier by hand.
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
