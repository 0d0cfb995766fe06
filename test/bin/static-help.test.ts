/**
 * A plain `--help` into a pipe is printed by the launcher from dist/help/ (scripts/help-text.mjs,
 * bin/startup/static-help.js) without loading the CLI. Every file must be exactly what the
 * program prints there, there must be one for every command and no other, the launcher must
 * print it without running the bundle, and every other help form must still reach the CLI.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

const HELP_DIR = fileURLToPath(new URL('../../dist/help/', import.meta.url));

function paths(cmd: Command, prefix: string[] = []): string[][] {
  return [prefix, ...cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => paths(c, [...prefix, c.name()]))];
}
const COMMAND_PATHS = paths(buildProgram({ context: () => undefined as never }));
const fileOf = (words: string[]): string => `${words.length === 0 ? 'exercises' : words.join('-')}.txt`;

const TRACE = fileURLToPath(new URL('../cache/fixtures/trace-requires.cjs', import.meta.url));
/** Runs the built CLI with a preload that lists the files require() loaded: `ranCli` tells whether the bundle ran. */
async function traced(args: string[]) {
  const file = join(tempDir('exercises-trace-'), 'loaded.json');
  const r = await runCli(args, { env: { NODE_OPTIONS: `--require ${TRACE}`, TRACE_REQUIRES_FILE: file } });
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as string[];
  return { ...r, ranCli: loaded.some((f) => f.endsWith(join('bundle', 'cli.cjs'))) };
}

describe('help printed from dist/help/', () => {
  it('has one file for the program and each command, and no other', () => {
    expect(readdirSync(HELP_DIR).sort()).toEqual(COMMAND_PATHS.map(fileOf).sort());
    expect(COMMAND_PATHS.length).toBeGreaterThan(20);
  });

  for (const words of COMMAND_PATHS) {
    it(`holds what \`exercises ${[...words, '--help'].join(' ')}\` prints into a pipe`, async () => {
      const r = await runInProcess([...words, '--help'], { columns: 80 });
      expect(r.code).toBe(0);
      expect(readFileSync(join(HELP_DIR, fileOf(words)), 'utf8')).toBe(r.stdout);
    });
  }

  it('is printed by the launcher, in every plain form, without running the CLI', async () => {
    const expected = readFileSync(join(HELP_DIR, 'auth-login.txt'), 'utf8');
    for (const args of [
      ['auth', 'login', '--help'],
      ['auth', 'login', '-h'],
      ['help', 'auth', 'login'],
    ]) {
      const r = await traced(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(expected);
      expect(r.ranCli).toBe(false);
    }
    const program = await traced(['-h']);
    expect(program.stdout).toBe(readFileSync(join(HELP_DIR, 'exercises.txt'), 'utf8'));
    expect(program.ranCli).toBe(false);
  });

  it('leaves every other form to the CLI: topics, unknown commands, flags before --help', async () => {
    const home = isolatedHome();
    const topic = await runCli(['help', 'exit-codes'], { env: { HOME: home } });
    expect(topic.code).toBe(0);
    expect(topic.stdout).toMatch(/\b7\b/);
    const unknown = await runCli(['help', 'quer'], { env: { HOME: home } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Did you mean query\?/);
    const withFlag = await traced(['--sandbox', 'show', '--help']);
    expect(withFlag.code).toBe(0);
    expect(withFlag.stdout).toBe(readFileSync(join(HELP_DIR, 'show.txt'), 'utf8'));
    expect(withFlag.ranCli).toBe(true);
  });
});
