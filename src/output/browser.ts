/**
 * Opening a page in the person's browser, as gh does: BROWSER when it is set (a command, maybe
 * with arguments, split into words as a shell splits them, without expanding anything; the
 * page's path added last), else the system's opener: `open` on macOS, `cmd /c start ""` on
 * Windows, `xdg-open` elsewhere when there is a display (DISPLAY or WAYLAND_DISPLAY). Where no
 * browser can be opened for the person (stdout is not a terminal, a session over SSH without
 * BROWSER, no display) the caller prints the path instead. The opener runs detached and is
 * waited on only for a moment: one that fails at once is an error; one still running then is
 * the browser itself, left to run.
 */
import { spawn } from 'node:child_process';
import type { Env } from '../context.js';

/** How long an opener may take to say it failed; past it, it is taken to be the browser, running. */
const OPENER_WAIT_MS = 1000;

export type Opener = { command: string; args: string[] } | { why: string };

/** `BROWSER` as words: spaces separate them, quotes and backslashes keep them whole, nothing is expanded. */
function shellWords(text: string): string[] {
  const words = text.match(/(?:[^\s'"\\]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.)+/g) ?? [];
  return words.map((w) =>
    w.replace(
      /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g,
      (_m, single?: string, double?: string, escaped?: string) => single ?? double?.replace(/\\(.)/g, '$1') ?? escaped ?? '',
    ),
  );
}

/** The command that opens a page here, or why none is run. */
export function browserOpener(env: Env, platform: NodeJS.Platform, stdoutIsTTY: boolean): Opener {
  if (!stdoutIsTTY) return { why: 'stdout is not a terminal' };
  const [command, ...args] = shellWords(env.BROWSER ?? '');
  if (command !== undefined) return { command, args };
  if (env.SSH_CONNECTION || env.SSH_TTY) return { why: 'this is a session over SSH (BROWSER names a browser to open pages from it)' };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { why: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { command: 'xdg-open', args: [] };
}

/** Runs the opener on `path`; rejects with why it failed (it could not start, or it ended with a failure at once). */
export function openInBrowser(opener: { command: string; args: string[] }, path: string): Promise<void> {
  // cmd.exe reads its own command line: `start "" "<path>"` as written, not as Node would quote it.
  const verbatim = opener.command === 'cmd' && process.platform === 'win32';
  const child = spawn(opener.command, [...opener.args, verbatim ? `"${path}"` : path], { detached: true, stdio: 'ignore', windowsVerbatimArguments: verbatim });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.unref();
      resolve();
    }, OPENER_WAIT_MS);
    const end = (error?: string): void => {
      clearTimeout(timer);
      if (error === undefined) resolve();
      else reject(new Error(`${opener.command} ${error}`));
    };
    child.once('error', (err: NodeJS.ErrnoException) => end(err.code === 'ENOENT' ? 'was not found' : `could not be run (${err.message})`));
    child.once('exit', (code, signal) => end(code === 0 ? undefined : code !== null ? `exited with status ${code}` : `was ended by ${signal}`));
  });
}
