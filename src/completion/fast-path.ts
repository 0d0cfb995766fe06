/**
 * `exercises __complete <shell> <cword> <words...>`: the answer to one TAB, run without the CLI. The
 * commands and flags come from dist/completion.json, ids from local files only (the catalogue directory
 * the line would use, else the response cache's id index): a TAB never sends a request.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { cacheRoot } from '../cache/store-files.js';
import { readStoredConfig } from '../config/parsers.js';
import { DEFAULT_GLOBALS, catalogueInForce } from '../config/settings.js';
import { catalogueEntriesMatching, catalogueMediaNames } from './catalogue-ids.js';
import { readIdIndexMatching } from './id-index.js';
import { COMPLETION_DATA_VERSION, type CompletionData } from './data.js';
import { type LocalSources, type ParsedLine, complete } from './engine.js';
import { formatCompletion, SHELLS, type Shell } from './shell-output.js';
import { reassemble } from './parse-line.js';

/** `~/x` as the shell would have expanded it in a complete word. */
function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** The catalogue directory this command line would answer from, by the rule a run follows. */
export function catalogueDirFor(line: ParsedLine, env: NodeJS.ProcessEnv, sampleDir: string): string | undefined {
  if (line.given.has('--sandbox')) return sampleDir;
  const globals = { ...DEFAULT_GLOBALS, baseUrl: line.given.get('--base-url'), catalogue: line.given.get('--catalogue') };
  try {
    const dir = catalogueInForce({ globals, env, stored: readStoredConfig(env) })?.value;
    return dir === undefined ? undefined : resolve(expandHome(dir));
  } catch {
    return undefined; // an unreadable config file, or --catalogue beside --base-url: no catalogue to complete from
  }
}

export interface FastPathFiles {
  dataFile: string;
  sampleDir: string;
}

/** The answer for `args` (what follows `__complete`); '' when they make no sense. */
export function answer(args: readonly string[], files: FastPathFiles, env: NodeJS.ProcessEnv): string {
  const [shell, cwordText, ...pieces] = args;
  const cword = Number(cwordText);
  if (!SHELLS.includes(shell as Shell) || !Number.isInteger(cword) || cword < 1) return '';
  const data = JSON.parse(readFileSync(files.dataFile, 'utf8')) as CompletionData;
  if (data.version !== COMPLETION_DATA_VERSION) return '';
  // bash splits words at = and :, zsh and fish do not.
  const line = reassemble(pieces, cword, shell === 'bash');
  const result = complete(data, line.words, line.cword, (parsed): LocalSources => {
    const dir = catalogueDirFor(parsed, env, files.sampleDir);
    const cacheDir = cacheRoot(env);
    return {
      exercises: (prefix, limit) => (dir !== undefined ? catalogueEntriesMatching(dir, prefix, cacheDir, limit) : readIdIndexMatching(cacheDir, prefix, limit)),
      mediaNames: (idOrName, kind) => (dir !== undefined ? catalogueMediaNames(dir, idOrName, kind, cacheDir) : []),
    };
  });
  return formatCompletion(shell as Shell, result, { raw: line.words[line.cword] ?? '', replacedFrom: line.replacedFrom });
}

/** Writes the answer; any failure means no candidates, never an error on the user's prompt. */
export function main(args: readonly string[], files: FastPathFiles): void {
  let text: string;
  try {
    text = answer(args, files, process.env);
  } catch {
    text = '';
  }
  // A shell that stopped reading is no error on the user's prompt.
  process.stdout.on('error', () => {});
  process.stdout.write(text);
}
