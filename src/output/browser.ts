/**
 * Opening a page in the person's browser, as gh does: BROWSER when set (split into words as a shell
 * would, nothing expanded), else `open`, `cmd /c start ""` or `xdg-open` with a display. Where none can
 * be opened the caller prints the path. An opener still running after a moment is the browser itself.
 */
import { spawn } from 'node:child_process';
import type { Env } from '../context.js';

/** How long an opener may take to fail; past it, it is taken to be the browser, running. */
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

/** Runs the opener on `path`; rejects when it could not start or failed at once. */
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
