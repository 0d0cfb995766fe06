/**
 * Messages for a person on stderr: notices and progress wrapped to the terminal by the helper
 * errors use (src/output/wrap.ts noticeLines, notice.ts), paths as the user gave them
 * (shown-path.ts), Ctrl-C said plainly, and `auth login` saying where a key comes from.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InterruptedError, NotFoundError } from '../../src/errors.js';
import { reportError } from '../../src/output/errors.js';
import { noticeLines, progressText } from '../../src/output/wrap.js';
import { shownPath } from '../../src/output/shown-path.js';
import { keySourceLine } from '../../src/commands/auth.js';
import { runInProcess, testContext } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('notices wrapped to the terminal', () => {
  it('`--sandbox mirror DIR --langs de-DE` at 80 columns prints no line over 80 but a word longer than that, and every word whole', async () => {
    const dir = tempDir('exercises-mirror-notices-');
    dirs.push(dir);
    const r = await runInProcess(['--sandbox', 'mirror', join(dir, 'm'), '--langs', 'de-DE'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    // The progress line is redrawn in place with \r: what stays is each line after the last \r.
    const lines = r.stderr.split('\n').map((l) => l.slice(l.lastIndexOf('\r') + 1).replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''));
    // A word longer than the width (the folder's path, as long as TMPDIR makes it) stands alone on its line.
    for (const line of lines) if (line.length > 80) expect(line.trim(), line).not.toMatch(/\s/);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain('67 record requests and 67 translation requests to go');
  });

  it('in a pipe each notice stays one line, for grep', async () => {
    const dir = tempDir('exercises-mirror-pipe-');
    dirs.push(dir);
    const r = await runInProcess(['--sandbox', 'mirror', join(dir, 'm'), '--langs', 'de-DE']);
    expect(r.stderr).toMatch(/^mirror: 67 ids listed \(3 requests\); 67 record requests and 67 translation requests to go: 134 more\.$/m);
  });

  it('noticeLines wraps like the errors do, only on a terminal; progressText cuts a redrawn line', () => {
    const text = 'word '.repeat(30).trim();
    for (const line of noticeLines(text, { stderrIsTTY: true, columns: 40 }).split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(noticeLines(text, { stderrIsTTY: false, columns: 40 })).toBe(text);
    expect(progressText('x'.repeat(100), 40)).toBe(`${'x'.repeat(38)}…`);
    expect(progressText('mirror: 3/10 requests', 80)).toBe('mirror: 3/10 requests');
  });

  it('shows a path relative when the user gave a relative one, absolute otherwise', () => {
    const here = process.cwd();
    expect(shownPath(join(here, 'media', 'Plank'), 'media')).toBe(join('media', 'Plank'));
    expect(shownPath(join(here, 'media'), undefined)).toBe('media');
    expect(shownPath(here, '.')).toBe('.');
    expect(shownPath('/srv/media/Plank', '/srv/media')).toBe('/srv/media/Plank');
  });
});

describe('Ctrl-C', () => {
  it('is said without "Error" and in the normal colour; a failure keeps its red Error:', () => {
    const t = testContext({ tty: true, env: { FORCE_COLOR: '1' } });
    expect(reportError(new InterruptedError('Interrupted after it fetched 1 of 3 files (2 kB).', { hint: 'Run the same command again.' }), t.ctx)).toBe(130);
    const said = t.stderr.text();
    expect(said).toMatch(/^Interrupted after it fetched 1 of 3 files/);
    expect(said).not.toContain('Error');
    expect(said).not.toContain('\u001b[31m');
    const failed = testContext({ tty: true, env: { FORCE_COLOR: '1' } });
    reportError(new NotFoundError('No exercise has the id or name "x".'), failed.ctx);
    expect(failed.stderr.text()).toContain('\u001b[31mError:\u001b[39m');
  });
});

describe('auth login', () => {
  it('says where a key comes from: the help, and the line before the prompt', async () => {
    const help = await runInProcess(['auth', 'login', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("keys come from the provider's web console, in its settings area");
    expect(keySourceLine('https://api.wrkout.xyz')).toBe(
      'Get a key from the web console of the service at api.wrkout.xyz, in its settings area (see "Your API key" in the README).',
    );
    const asked = await runInProcess(['auth', 'login'], { stdinIsTTY: true, input: 'abc-123\n' });
    expect(asked.code, asked.stderr).toBe(0);
    const before = asked.stderr.indexOf('API key (input hidden)');
    expect(asked.stderr.indexOf('Get a key from the web console of the service at api.wrkout.xyz')).toBeGreaterThanOrEqual(0);
    expect(asked.stderr.indexOf('Get a key from the web console')).toBeLessThan(before);
  });

  it('says nothing of it with --with-key or --quiet (a script already has its key)', async () => {
    const piped = await runInProcess(['auth', 'login', '--with-key'], { input: 'abc-123\n' });
    expect(piped.stderr).not.toContain('web console');
    const quiet = await runInProcess(['--quiet', 'auth', 'login'], { stdinIsTTY: true, input: 'abc-123\n' });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('web console');
  });
});
