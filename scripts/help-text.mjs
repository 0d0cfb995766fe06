#!/usr/bin/env node
/**
 * Start-up only (docs/development.md "How start-up works"). Writes dist/help/: the help of the
 * program and of every command and subcommand as the CLI prints it into a pipe (80 columns, no
 * colour; nothing else changes it: no setting or variable), one file each (`exercises.txt`,
 * `query.txt`, `auth-login.txt`…). The launcher prints one of these for a plain `--help` into
 * a pipe without loading the CLI (bin/startup/static-help.js); at a terminal the CLI renders
 * help to the terminal's width. Each text is the CLI's own output (runCli on a context whose
 * streams are a pipe's), and test/bin/static-help.test.ts checks every file against the
 * program, so they cannot drift.
 *
 * Usage: node scripts/help-text.mjs   (after tsc)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist', 'help');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const { buildProgram, runCli } = await import(`${root}dist/cli.js`);
const { createContext } = await import(`${root}dist/factory.js`);

/** Every command path: [] for the program, ['query'], ['auth', 'login']… (commander's own `help` left out). */
function paths(cmd, prefix = []) {
  return [prefix, ...cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => paths(c, [...prefix, c.name()]))];
}

/** The help `words --help` prints into a pipe, with an empty environment. */
async function helpText(words) {
  let text = '';
  const stdout = new Writable({ write: (chunk, _encoding, done) => ((text += chunk), done()) });
  const io = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: 80 };
  const ctx = createContext({ io, env: { HOME: '/nonexistent' } });
  const code = await runCli([...words, '--help'], ctx);
  if (code !== 0) throw new Error(`exercises ${words.join(' ')} --help exited ${code}`);
  return text;
}

for (const words of paths(buildProgram({ context: () => undefined }))) {
  writeFileSync(join(outDir, `${words.length === 0 ? 'exercises' : words.join('-')}.txt`), await helpText(words));
}
