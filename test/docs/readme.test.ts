/**
 * The README is a front page and docs/commands.md the reference: keep both in step with the code
 * (the exit-code table, the environment table, every command, flag and setting).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_TABLE } from '../../src/errors.js';
import { environmentVariables } from '../../src/config/settings-docs.js';
import { CONFIG_KEYS } from '../../src/config/settings.js';
import { buildProgram } from '../../src/cli.js';
import { runCli } from '../helpers/run-cli.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const reference = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');

const program = buildProgram({
  context: () => {
    throw new Error('no command runs in this test');
  },
});

/** Every command and subcommand, with its path (`config set`). */
function commands(cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> {
  return cmd.commands.flatMap((sub) => [{ path: [...path, sub.name()], cmd: sub }, ...commands(sub, [...path, sub.name()])]);
}

describe('README', () => {
  it('is a front page: at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('lists every exit code with the meaning the code gives it', () => {
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(readme).toContain(`| ${code} | ${meaning} |`);
  });

  it("runs the main job with the checkout's own launcher, not npx (which copies the checkout into npm's cache and builds it again)", async () => {
    const line = readme.split('\n').find((l) => l.includes('# the main job'))!;
    const [command, ...args] = line.replace(/#.*/, '').trim().split(/\s+/);
    expect([command, args[0]]).toEqual(['node', 'bin/exercises.js']);
    const r = await runCli(args.slice(1));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Barbell_Bench_Press\t/m);
  });

  it('links every page of the reference', () => {
    for (const page of ['commands', 'requests-and-cache', 'media', 'catalogue-and-serve', 'reliability', 'performance', 'development']) {
      expect(readme).toContain(`](docs/${page}.md)`);
    }
  });
});

describe('docs/commands.md', () => {
  it('lists every exit code with the meaning the code gives it', () => {
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(reference).toContain(`| ${code} | ${meaning} |`);
  });

  it('documents every command and subcommand the CLI registers', () => {
    const all = commands(program);
    expect(all.length).toBeGreaterThanOrEqual(20);
    for (const { path } of all) {
      const [top, sub] = path;
      // `exercises auth login|status|logout` names the subcommands together.
      if (sub === undefined) expect(reference).toContain(`exercises ${top}`);
      else expect(reference).toMatch(new RegExp(`exercises ${top} ([\\w|]+\\|)?${sub}\\b`));
    }
  });

  it('documents every flag, global or a command’s own', () => {
    const missing: string[] = [];
    for (const { path, cmd } of [{ path: [], cmd: program }, ...commands(program)]) {
      for (const option of cmd.options) {
        if (option.long && !option.long.startsWith('--help') && !reference.includes(`\`${option.long}`) && !reference.includes(`, ${option.long}`)) {
          missing.push(`${path.join(' ') || '(global)'} ${option.long}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every environment variable from the one table in the code', () => {
    for (const { name } of environmentVariables()) expect(reference).toContain(`| \`${name}\` |`);
  });

  it('documents every setting', () => {
    for (const { name } of CONFIG_KEYS) expect(reference).toContain(`| \`${name}\` |`);
  });
});
