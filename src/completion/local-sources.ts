/**
 * Where TAB finds exercise ids, names and media names, never over the network: the
 * catalogue directory the command line would use (`--sandbox`: the sample; `--catalogue
 * <dir>`; EXERCISES_CATALOGUE; the stored `catalogue` setting), else the id index the
 * response cache keeps (id-index.ts). A catalogue's ids are searched in an index of their
 * own that completion keeps in the cache directory (catalogue-ids.ts).
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheRoot } from '../cache/store-files.js';
import { configPath, readStoredConfig } from '../config/parsers.js';
import { catalogueEntriesMatching, catalogueMediaNames } from './catalogue-ids.js';
import type { LocalSources, ParsedLine } from './engine.js';
import { readIdIndexMatching } from './id-index.js';

/** `~/x` as the shell would have expanded it had the word been complete. */
function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

function storedCatalogue(env: NodeJS.ProcessEnv): string | undefined {
  // Most people have no config file: asking first spares a TAB the cost of a thrown ENOENT.
  if (!statSync(configPath(env), { throwIfNoEntry: false })) return undefined;
  try {
    const value = readStoredConfig(env).catalogue;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined; // an unreadable config file only means no stored catalogue
  }
}

/** The catalogue directory this command line would answer from, if any. */
export function catalogueDirFor(line: ParsedLine, env: NodeJS.ProcessEnv, sampleDir: string): string | undefined {
  if (line.given.has('--sandbox')) return sampleDir;
  const flag = line.given.get('--catalogue');
  const dir = flag !== undefined && flag !== '' ? flag : env.EXERCISES_CATALOGUE || storedCatalogue(env);
  return dir === undefined ? undefined : resolve(expandHome(dir));
}

export function localSources(line: ParsedLine, env: NodeJS.ProcessEnv, sampleDir: string): LocalSources {
  const dir = catalogueDirFor(line, env, sampleDir);
  const cacheDir = cacheRoot(env);
  return {
    exercises: (prefix, limit) => (dir !== undefined ? catalogueEntriesMatching(dir, prefix, cacheDir, limit) : readIdIndexMatching(cacheDir, prefix, limit)),
    mediaNames: (idOrName, kind) => (dir !== undefined ? catalogueMediaNames(dir, idOrName, kind, cacheDir) : []),
  };
}
