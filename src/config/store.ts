/**
 * The stored settings: a JSON file in the user config directory (XDG_CONFIG_HOME on
 * Linux), mode 0600 because it may hold the API key. Reading is a plain file read, so
 * commands that only need the key start fast; writing goes through conf (loaded lazily),
 * which writes atomically. Where the file is follows the environment given (the Context's).
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { type Env, configDir } from './paths.js';
import { loadConf } from '../vendor/conf.js';
import { RefusedFileError, readRegularFileSync } from '../util/safe-open.js';

/** Largest settings file read: a few hundred bytes in use; a FIFO, a device or a huge file is refused unread. */
const SETTINGS_FILE_MAX_BYTES = 1024 * 1024;

const FILE_MODE = 0o600;
/** The directory holds the key too: private whatever the umask. */
const DIR_MODE = 0o700;

export type StoredConfig = Record<string, unknown>;

export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

/** The stored values; {} when there is no file yet. A corrupt file is a usage error naming it. */
export function readStoredConfig(env: Env): StoredConfig {
  const path = configPath(env);
  let text: string;
  try {
    // The one rule (util/safe-open.ts): a FIFO planted here would otherwise hang every command at start.
    text = readRegularFileSync(path, { maxBytes: SETTINGS_FILE_MAX_BYTES }).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    if (err instanceof RefusedFileError) throw new UsageError(`Cannot read the config file: ${err.message}.`);
    throw new UsageError(`Cannot read the config file ${path}: ${(err as Error).message}.`);
  }
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as StoredConfig;
  } catch {
    // fall through
  }
  throw new UsageError(`The config file ${path} is not valid JSON.`, {
    hint: 'Fix or delete it; `exercises config path` prints where it is.',
  });
}

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
