/** Help as a new user meets it: bare group commands, inherited flags, the reference tables, no default noise. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { ENVIRONMENT_VARIABLES } from '../../src/config/environment.js';
import { EXIT_CODE_TABLE } from '../../src/errors.js';

describe('help', () => {
  it.each([[[]], [['auth']], [['config']]])('exercises %j with nothing else prints help on stdout and exits 0', async (args) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: exercises/);
    expect(r.stderr).toBe('');
  });

  it('the top-level help has examples and points at the reference topics', async () => {
    const r = await runInProcess(['--help'], { columns: 100 });
    expect(r.stdout).toMatch(/Examples:\n {2}\$ exercises /);
    expect(r.stdout).toContain('exercises help environment');
  });

  it.each([[40], [80], [200]])('each command lists the global flags it inherits (%i columns)', async (columns) => {
    for (const cmd of [['query'], ['show'], ['download'], ['auth', 'login'], ['config', 'list']]) {
      const r = await runInProcess([...cmd, '--help'], { columns });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Global Options:[\s\S]*--sandbox[\s\S]*--no-pager/);
    }
  });

  it('no "(default: false)" on boolean flags and no doubled defaults', async () => {
    for (const cmd of [[], ['query'], ['ids'], ['show'], ['image'], ['video'], ['download'], ['auth', 'login'], ['auth', 'status'], ['config', 'set'], ['serve']]) {
      const r = await runInProcess([...cmd, '--help'], { columns: 200 });
      expect(r.stdout).not.toMatch(/\(default: false\)|\(default: true\)|\(default\) \(default/);
    }
  });

  it('help environment lists every variable of the one table, and the reference documents each', async () => {
    const r = await runInProcess(['help', 'environment']);
    expect(r.code).toBe(0);
    const reference = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const section = reference.slice(reference.indexOf('## Environment variables'), reference.indexOf('## Exit codes'));
    for (const { name } of ENVIRONMENT_VARIABLES) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
      expect(section).toContain(`| \`${name}\` |`);
    }
  });

  it('help exit-codes prints the exit-code table', async () => {
    const r = await runInProcess(['--quiet', 'help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(r.stdout).toContain(`${String(code).padStart(3)}  ${meaning}`);
  });
});
