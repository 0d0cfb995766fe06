/**
 * docs/commands.md's tables are written by the build from the command tree and the settings
 * table (scripts/commands-doc.mjs): the committed page must be what the build writes, so a new
 * flag, setting, variable or exit code cannot be left out of the reference.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAGS, CONFIG_KEYS } from '../../src/config/settings.js';
import { ROOT } from './markdown.js';

const SCRIPT = join(ROOT, 'scripts', 'commands-doc.mjs');
const page = readFileSync(join(ROOT, 'docs', 'commands.md'), 'utf8');

describe('docs/commands.md', () => {
  it('is what scripts/commands-doc.mjs writes from the built command tree', async () => {
    const check = await promisify(execFile)(process.execPath, [SCRIPT, '--check'], { cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  it('has a generated row for every global flag and config key, with its help line', () => {
    const globals = page.slice(page.indexOf('<!-- generated: global-options -->'), page.indexOf('## Defaults'));
    for (const flag of GLOBAL_FLAGS) expect(globals).toContain(`| \`${flag.flag}\` | ${flag.description}`);
    const keys = page.slice(page.indexOf('<!-- generated: config-keys -->'));
    for (const spec of CONFIG_KEYS) expect(keys).toContain(`| \`${spec.name}\` | ${spec.description}`);
  });
});
