/**
 * The man pages (scripts/man.mjs, run by `npm run build`): one per command and subcommand plus
 * exercises(1), each rendering without a warning and with every section, listed in
 * package.json's "man" and in what `npm pack` takes (its "files"). Rendered with groff's man macros (what
 * `man` runs), and exercises(1) also with `man -l` where man-db is installed; skipped, saying
 * so, where groff is not.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { EXIT_CODE_TABLE } from '../../src/errors.js';
import { environmentVariables } from '../../src/config/settings-docs.js';
import { ROOT } from './markdown.js';

const MAN_DIR = join(ROOT, 'man');
const SECTIONS = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXAMPLES', 'EXIT STATUS', 'ENVIRONMENT', 'FILES'];

const program = buildProgram({
  context: () => {
    throw new Error('no command runs in this test');
  },
});

function pages(cmd: Command, path: string[] = []): Array<{ name: string; cmd: Command }> {
  return cmd.commands.flatMap((sub) => [{ name: ['exercises', ...path, sub.name()].join('-'), cmd: sub }, ...pages(sub, [...path, sub.name()])]);
}
const expected = [{ name: 'exercises', cmd: program }, ...pages(program)];

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const groff = has('groff');

/** The page as a terminal shows it, plain text, and what the formatter warned about. */
async function render(file: string, viaMan = false): Promise<{ text: string; warnings: string }> {
  const { stdout, stderr } = viaMan
    ? await promisify(execFile)('man', ['-l', '--warnings=w', file], {
        encoding: 'utf8',
        env: { ...process.env, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '100' },
      })
    : await promisify(execFile)('groff', ['-man', '-Tutf8', '-ww', file], { encoding: 'utf8' });
  // Bold and underline as overstrikes or SGR sequences become plain text.
  return { text: stdout.replace(/.\x08/g, '').replace(/\x1b\[[0-9;]*m/g, ''), warnings: stderr };
}

describe('man pages', () => {
  it('are built: one per command and subcommand, plus exercises(1)', () => {
    expect(existsSync(MAN_DIR), 'man/ is written by `npm run build`').toBe(true);
    const built = readdirSync(MAN_DIR)
      .filter((f) => f.endsWith('.1'))
      .sort();
    expect(built).toEqual(expected.map((p) => `${p.name}.1`).sort());
    expect(built.length).toBeGreaterThanOrEqual(20);
  });

  it('are all listed in package.json "man", so `npm install -g` installs them', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] };
    expect([...pkg.man].sort()).toEqual(expected.map((p) => `./man/${p.name}.1`).sort());
  });

  // What `npm pack` would take, read from its rules rather than by running it (an npm process
  // per run cost seconds): "files" names man/ whole, and no ignore file inside it drops a page.
  it('are in the package', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files.map((f) => f.replace(/^\.\//, '').replace(/\/$/, ''))).toContain('man');
    for (const ignore of ['.npmignore', '.gitignore']) expect(existsSync(join(MAN_DIR, ignore)), `man/${ignore}`).toBe(false);
    for (const { name } of expected) expect(existsSync(join(MAN_DIR, `${name}.1`)), name).toBe(true);
  });

  it.skipIf(!groff)(
    'render without warnings, with every section, the flags, exit codes and variables',
    async () => {
      const rendered = await Promise.all(expected.map(async (page) => ({ ...page, ...(await render(join(MAN_DIR, `${page.name}.1`))) })));
      for (const { name, cmd, text, warnings } of rendered) {
        expect(warnings, name).toBe('');
        const headings = text.split('\n').filter((l) => /^[A-Z][A-Z ]+$/.test(l));
        for (const section of SECTIONS) expect(headings, `${name}: ${section}`).toContain(section);
        expect(text).toContain(`${name} - ${cmd.description().split('\n')[0]!.slice(0, 20)}`);
        for (const option of cmd.options) if (option.long !== '--help') expect(text, `${name}: ${option.long}`).toContain(option.long);
        // Subcommands' pages list the global options they inherit; flags copy as ASCII hyphens.
        if (name !== 'exercises') expect(text).toContain('Inherited options');
        expect(text).toContain('--base-url');
        expect(text).not.toContain('\u2212');
        for (const { code, meaning } of EXIT_CODE_TABLE) expect(text.replace(/\s+/g, ' ')).toContain(`${code} ${meaning}`);
        for (const { name: variable } of environmentVariables()) expect(text).toContain(variable);
      }
    },
    60_000,
  );

  it.skipIf(!has('man'))('open with `man -l`', async () => {
    const { text, warnings } = await render(join(MAN_DIR, 'exercises.1'), true);
    expect(warnings).toBe('');
    expect(text).toMatch(/^EXERCISES\(1\)/);
    for (const section of SECTIONS) expect(text).toContain(`\n${section}\n`);
  });

  it.runIf(!groff)('are not rendered here: groff is not installed (apt-get install -y groff-base man-db)', () => {
    expect(groff).toBe(false);
  });
});
