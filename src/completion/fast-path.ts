/**
 * `exercises __complete <shell> <cword> <words...>`: the answer to one TAB, called by the
 * scripts of `exercises completion`. It runs without the CLI (bin/complete.js loads this
 * module's own small bundle, dist/bundle/complete.cjs): the commands and flags come from
 * dist/completion.json, written at build time, and ids from local files only, so a TAB
 * costs about as much as starting Node and never sends a request.
 */
import { readFileSync } from 'node:fs';
import { writeAllNow } from '../output/streams.js';
import { COMPLETION_DATA_VERSION, type CompletionData } from './data.js';
import { complete } from './engine.js';
import { localSources } from './local-sources.js';
import { formatCompletion, SHELLS, type Shell } from './shell-output.js';
import { reassemble } from './words.js';

export interface FastPathFiles {
  /** dist/completion.json */
  dataFile: string;
  /** The sample catalogue (`--sandbox`). */
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
  const result = complete(data, line.words, line.cword, (parsed) => localSources(parsed, env, files.sampleDir));
  return formatCompletion(shell as Shell, result, { raw: line.words[line.cword] ?? '', replacedFrom: line.replacedFrom });
}

/**
 * Writes all of `text` to file descriptor 1 synchronously: process.stdout would load Node's
 * stream machinery, a good part of a TAB's time.
 */
function writeOut(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  try {
    // A descriptor left non-blocking (EAGAIN) is simply written again until all is in.
    for (let done = 0; done < bytes.length;) done += writeAllNow(1, bytes.subarray(done));
  } catch {
    // the shell stopped reading
  }
}

/** Writes the answer; any failure means no candidates, never an error on the user's prompt. */
export function main(args: readonly string[], files: FastPathFiles): void {
  let text: string;
  try {
    text = answer(args, files, process.env);
  } catch {
    text = '';
  }
  writeOut(text);
}
