/**
 * Runs the generated completion scripts in real shells (child processes) against the
 * built CLI: `exercises` on PATH is a link to bin/exercises.js, as an installed package
 * gives, and HOME and the XDG folders are private to the test.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_PATH, runCli } from '../helpers/run-cli.js';
import { tempDir, tempRoot } from '../helpers/temp.js';
import { homeDirs } from '../setup/home-check.js';

/** A folder holding `exercises` (a link to the built CLI), to put first on PATH. */
function binDir(): string {
  const dir = tempDir('exercises-bin-');
  symlinkSync(CLI_PATH, join(dir, 'exercises'));
  return dir;
}

/** True when `shell` runs here; asked in a home of its own, as fish makes its folders on its first run. */
export function hasShell(shell: string): boolean {
  const home = tempDir('exercises-shell-probe-');
  try {
    return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', ...homeDirs(home) } }).status === 0;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export interface ShellEnv {
  home: string;
  env: Record<string, string>;
  /** The script `exercises completion <shell>` printed, saved to a file. */
  script: string;
}

/** A private home, the CLI on PATH, and the script for `shell` as the CLI prints it. */
export async function shellEnv(shell: 'bash' | 'zsh' | 'fish', extra: Record<string, string> = {}): Promise<ShellEnv> {
  const home = tempDir('exercises-completion-');
  const env: Record<string, string> = {
    PATH: `${binDir()}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    ...homeDirs(home),
    LANG: 'C.UTF-8',
    // Here-documents and the like: under the run's temp root, removed with it.
    TMPDIR: tempRoot(),
    ...extra,
  };
  const printed = await runCli(['completion', shell], { env });
  if (printed.code !== 0) throw new Error(`completion ${shell} failed: ${printed.stderr}`);
  const script = join(home, `completion.${shell}`);
  writeFileSync(script, printed.stdout);
  return { home, env, script };
}

function bashWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface BashCompletion {
  /** Words as bash's COMP_WORDS holds them (still quoted as typed, split at = and :). */
  words: string[];
  /** Index of the word being completed; the last one by default. */
  cword?: number;
  cwd?: string;
  env?: Record<string, string>;
}

/** Calls the generated `_exercises` with COMP_WORDS/COMP_CWORD set, and returns COMPREPLY. */
export function bashComplete(setup: ShellEnv, c: BashCompletion): string[] {
  const cword = c.cword ?? c.words.length - 1;
  const program = [
    `source ${bashWord(setup.script)}`,
    `COMP_WORDS=(${c.words.map(bashWord).join(' ')})`,
    `COMP_CWORD=${cword}`,
    `COMP_LINE=${bashWord(c.words.join(' '))}`,
    `COMP_POINT=\${#COMP_LINE}`,
    '_exercises exercises "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { cwd: c.cwd, env: { ...setup.env, ...c.env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bash exited ${r.status}: ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l !== '');
}

/** A catalogue directory with the given records (exercises.jsonl only). */
export function catalogueDir(records: object[]): string {
  const dir = tempDir('exercises-catalogue-');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'exercises.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return dir;
}
