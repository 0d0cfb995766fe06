/**
 * A tmux server of a test's own, for the terminal tests. Its socket is a file under the run's
 * temp root (-S, tmux-sockets.ts), never in the machine's /tmp/tmux-<uid>/, and it reads no
 * config (-f /dev/null). A server still running when the test that started it has finished
 * (or, started in a beforeAll, when its file has: test/setup/worker.ts) is stopped, and fails that test: a terminal
 * test closes what it opens. The global setup stops any left at the end of the run as well.
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { tempRoot } from './temp.js';
import { HAVE_TMUX, killServer, serverRunning, tmuxDir } from './tmux-sockets.js';

export { HAVE_TMUX };
export const NO_TMUX_MESSAGE = 'tmux is not installed: the terminal tests are skipped (apt-get install -y tmux)';

/** A Unix socket's path must fit in sockaddr_un (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/** What one tmux command did. */
export interface TmuxResult {
  /** Its exit status (null when it could not be run, or ended by a signal). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * tmux with `args`, without blocking: a test's servers (the catalogue server, a slow service)
 * live in the same event loop as its waits on the screen, so a synchronous capture-pane every
 * few ms would starve the very server the screen waits on.
 */
function tmuxAsync(args: string[], env?: NodeJS.ProcessEnv): Promise<TmuxResult> {
  return new Promise((resolve) => {
    execFile('tmux', args, { encoding: 'utf8', ...(env ? { env } : {}) }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ status, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });
}

export interface TmuxServer {
  readonly socket: string;
  /** tmux with these arguments, on this server: its status and output. */
  run(...args: string[]): Promise<TmuxResult>;
  /** As run, but a failure throws, naming the command and what tmux said; the output. */
  exec(...args: string[]): Promise<string>;
  /** Stops the server and what runs in it (nothing if it has stopped already). */
  kill(): void;
}

/** Stops each server still running; throws naming them, if there were any. */
export function stopAndFail(sockets: Iterable<string>, who: string): void {
  const running = [...sockets].filter(serverRunning);
  for (const socket of running) killServer(socket);
  if (running.length > 0)
    throw new Error(
      `${who} left ${running.length} tmux server(s) running (now stopped): close each terminal it starts.\n${running.map((s) => `  ${s}`).join('\n')}`,
    );
}

/** Servers started outside a test (in a beforeAll): test/setup/worker.ts checks them when each file ends. */
const startedOutsideTests = new Set<string>();

/** Stops and fails on any server started outside a test that still runs (called after each file). */
export function checkServersOutsideTests(): void {
  const sockets = [...startedOutsideTests];
  startedOutsideTests.clear();
  stopAndFail(sockets, 'This file');
}

let count = 0;

/** The part of a test's context that runs a callback when that test ends. */
export interface TestEnd {
  onTestFinished(callback: () => void): void;
}

/**
 * A new tmux server (its first command, e.g. new-session, starts it); `name` says whose it is
 * and `env` is the environment of the tmux client, which a server it starts keeps. `test` is
 * the context of the test that owns it: required in a concurrent test (vitest cannot tell which
 * of the tests running at once a global onTestFinished belongs to), else the current test's.
 */
export function tmuxServer(name: string, env?: NodeJS.ProcessEnv, test?: TestEnd): TmuxServer {
  const dir = tmuxDir(tempRoot());
  mkdirSync(dir, { recursive: true });
  const socket = join(dir, `${name}-${process.pid}-${++count}`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    throw new Error(`The tmux socket path ${socket} is too long for a Unix socket: run the suite with a shorter TMPDIR.`);
  }
  const check = (): void => stopAndFail([socket], 'This test');
  try {
    if (test) test.onTestFinished(check);
    else onTestFinished(check);
  } catch {
    // Not in a test (a beforeAll): the file's end checks it.
    startedOutsideTests.add(socket);
  }
  const run = (...args: string[]) => tmuxAsync(['-S', socket, '-f', '/dev/null', ...args], env);
  return {
    socket,
    run,
    async exec(...args) {
      const r = await run(...args);
      if (r.status !== 0) throw new Error(`tmux ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
      return r.stdout;
    },
    kill: () => killServer(socket),
  };
}

/**
 * For a group of terminal tests run side by side (`describe(name, SIDE_BY_SIDE, …)`): each mostly
 * waits on its terminal, but where the CPU is starved (a CPU hog beside the suite, a loaded CI
 * box) the CLIs started at once share it, and each test takes several times what it takes alone.
 * So their bounds are wider: bounds on a failure, never waits, as a passing test takes what its
 * terminal takes.
 */
export const SIDE_BY_SIDE_WAIT_MS = 45_000;
export const SIDE_BY_SIDE = { concurrent: true, timeout: 60_000 } as const;

/** How often a wait looks at the screen: often enough to see a spinner, rarely enough to leave the CPU to the CLI. */
const POLL_MS = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `screen` (a capture-pane) until it matches `want`; the screen then. Throws after `ms`
 * with the screen as it was, so a failure shows what the terminal showed instead.
 */
export async function waitForScreen(screen: () => Promise<string>, want: RegExp | string | ((text: string) => boolean), ms = 15_000): Promise<string> {
  const matches = typeof want === 'function' ? want : typeof want === 'string' ? (t: string) => t.includes(want) : (t: string) => want.test(t);
  const until = Date.now() + ms;
  for (;;) {
    const text = await screen();
    if (matches(text)) return text;
    if (Date.now() > until) throw new Error(`The terminal never showed ${String(want)} in ${ms} ms; it shows:\n${text}`);
    await pause(POLL_MS);
  }
}

/** The screen once it has stayed the same for `quietMs`: whatever the last key set off is drawn. */
export async function settledScreen(screen: () => Promise<string>, quietMs = 300): Promise<string> {
  let text = await screen();
  for (let quietSince = Date.now(); Date.now() - quietSince < quietMs;) {
    await pause(POLL_MS);
    const now = await screen();
    if (now !== text) [text, quietSince] = [now, Date.now()];
  }
  return text;
}
