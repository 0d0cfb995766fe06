/**
 * Which command opens a page (output/browser.ts), as gh decides it: BROWSER first, split as a
 * shell splits words; else the system's opener where there is a display; and none (the path is
 * printed instead) in a pipe, over SSH without BROWSER, or without a display. Then the opener
 * itself: one that is missing or fails at once is an error saying so; one still running after a
 * moment (the browser itself) is left to run.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserOpener, openInBrowser } from '../../src/output/browser.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const scratch = tempDirsPerTest('exercises-opener-');

describe('browserOpener', () => {
  it('BROWSER wins, split into words as a shell would (quotes, backslashes), the page to be added last', () => {
    expect(browserOpener({ BROWSER: `"/opt/My Browser/run" --profile 'a b' x\\ y`, SSH_TTY: '/dev/pts/1' }, 'linux', true)).toEqual({
      command: '/opt/My Browser/run',
      args: ['--profile', 'a b', 'x y'],
    });
    expect(browserOpener({ BROWSER: 'firefox' }, 'darwin', true)).toEqual({ command: 'firefox', args: [] });
  });

  it('else the system opener: open on macOS, cmd /c start "" on Windows, xdg-open with a display', () => {
    expect(browserOpener({}, 'darwin', true)).toEqual({ command: 'open', args: [] });
    expect(browserOpener({}, 'win32', true)).toEqual({ command: 'cmd', args: ['/c', 'start', '""'] });
    expect(browserOpener({ DISPLAY: ':0' }, 'linux', true)).toEqual({ command: 'xdg-open', args: [] });
    expect(browserOpener({ WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd', true)).toEqual({ command: 'xdg-open', args: [] });
  });

  it('none in a pipe (even with BROWSER), over SSH without BROWSER, or without a display', () => {
    expect(browserOpener({ BROWSER: 'firefox', DISPLAY: ':0' }, 'linux', false)).toEqual({ why: 'stdout is not a terminal' });
    expect(browserOpener({ SSH_CONNECTION: '1 2 3 4', DISPLAY: ':0' }, 'linux', true)).toMatchObject({ why: expect.stringMatching(/over SSH/) });
    expect(browserOpener({ SSH_TTY: '/dev/pts/1' }, 'darwin', true)).toMatchObject({ why: expect.stringMatching(/over SSH/) });
    expect(browserOpener({ BROWSER: '  ' }, 'linux', true)).toMatchObject({ why: expect.stringMatching(/no display/) });
  });
});

describe('openInBrowser', () => {
  const script = (body: string): string => {
    const path = join(scratch(), 'opener.sh');
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  it('resolves when the opener exits well, and when it is still running after a moment (left to run)', async () => {
    await expect(openInBrowser({ command: script('exit 0'), args: [] }, '/page.html')).resolves.toBeUndefined();
    const pidFile = join(scratch(), 'pid');
    await expect(openInBrowser({ command: script(`echo $$ > '${pidFile}'; exec sleep 30`), args: [] }, '/page.html')).resolves.toBeUndefined();
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).not.toThrow(); // still running: not waited for, not killed
    process.kill(pid);
  });

  it('rejects, naming the opener, when it is missing or fails at once', async () => {
    await expect(openInBrowser({ command: join(scratch(), 'no-such-browser'), args: [] }, '/page.html')).rejects.toThrow(/no-such-browser was not found/);
    await expect(openInBrowser({ command: script('exit 3'), args: [] }, '/page.html')).rejects.toThrow(/opener\.sh exited with status 3/);
  });
});
