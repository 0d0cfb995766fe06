/**
 * The README is the front door: keep its exit-code table and command list in step with the code.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_TABLE } from '../../src/errors.js';
import { buildProgram } from '../../src/cli.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every exit code with the meaning the code gives it', () => {
    for (const { code, meaning } of EXIT_CODE_TABLE) {
      expect(readme).toContain(`| ${code} | ${meaning} |`);
    }
  });

  it('documents every command the CLI registers', () => {
    const program = buildProgram({
      context: () => {
        throw new Error('no command runs in this test');
      },
    });
    const names = program.commands.map((c) => c.name());
    expect(names.length).toBeGreaterThanOrEqual(9);
    for (const name of names) expect(readme).toContain(`exercises ${name}`);
  });

  it('documents every environment variable the CLI reads', () => {
    for (const name of ['EXERCISES_API_KEY', 'EXERCISES_BASE_URL', 'EXERCISES_LANG', 'NO_COLOR']) {
      expect(readme).toContain(`\`${name}\``);
    }
  });
});
