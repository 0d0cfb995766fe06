/**
 * A real terminal for tests: the built CLI run in a detached tmux session (80×24 unless told)
 * on a private tmux server (test/helpers/tmux.ts: its own socket under the run's temp root, so
 * nothing touches a developer's sessions, and a server left running fails the test), driven
 * with send-keys and read with capture-pane. The command runs with exactly the environment
 * given (env -i), and its exit code is written to a file when it ends.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { CLI_PATH, testEnv } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { SIDE_BY_SIDE_WAIT_MS, type TestEnd, tmuxServer, waitForScreen } from '../helpers/tmux.js';

/** True when tmux can be run here; tests that need it skip (with a message) when not. */
export { HAVE_TMUX, NO_TMUX_MESSAGE, SIDE_BY_SIDE } from '../helpers/tmux.js';

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface TerminalRun {
  /** The pane's text; with `escapes`, with its colours and attributes as escape sequences (capture-pane -e). */
  capture(escapes?: boolean): Promise<string>;
  /**
   * send-keys: literal text, or key names such as Enter, Escape, C-c. Keys are sent in the order
   * given, and every capture, wait and display waits for those sent before it: no need to await.
   */
  keys(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  /** Waits until the pane shows `pattern` (or throws after `ms`). */
  waitFor(pattern: RegExp | string, ms?: number): Promise<string>;
  /** Waits for the command to end; its exit code. */
  exitCode(ms?: number): Promise<number>;
  /** tmux's own view of the pane (e.g. `#{pane_title}`). */
  display(format: string): Promise<string>;
  close(): void;
}

export interface TerminalOptions {
  env?: Record<string, string | undefined>;
  /** stdout redirected to this file (`> file`): the terminal is then only the controlling one. */
  stdoutFile?: string;
  /** stdout piped into a second run of the CLI with these arguments (its exit code is the one written). */
  pipeInto?: string[];
  cwd?: string;
  width?: number;
  height?: number;
  /** The owning test's context: required when tests run concurrently (tmuxServer). */
  test?: TestEnd;
  /** How long waitFor and exitCode wait before they fail (15 s unless told). */
  waitMs?: number;
}

export async function startTerminal(args: string[], options: TerminalOptions = {}): Promise<TerminalRun> {
  const work = tempDir('exercises-tmux-');
  const exitFile = join(work, 'exit');
  const env = testEnv({ TERM: 'xterm-256color', ...options.env });
  const ownHome = options.env?.HOME === undefined; // testEnv made it: removed with the run
  const assignments = Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`));
  const command = [
    options.cwd ? `cd ${shellQuote(options.cwd)} &&` : '',
    'env -i',
    ...assignments,
    shellQuote(process.execPath),
    shellQuote(CLI_PATH),
    ...args.map(shellQuote),
    options.stdoutFile ? `> ${shellQuote(options.stdoutFile)}` : '',
    options.pipeInto
      ? `| env -i ${assignments.join(' ')} ${shellQuote(process.execPath)} ${shellQuote(CLI_PATH)} ${options.pipeInto.map(shellQuote).join(' ')}`
      : '',
    `; echo $? > ${shellQuote(exitFile)}; sleep 60`,
  ].join(' ');
  const server = tmuxServer('exercises-term', undefined, options.test);
  // Every tmux command of this terminal, one after the other: keys reach the pane in the order
  // sent, and a capture sees what the keys before it set off.
  let queue: Promise<unknown> = server.exec('new-session', '-d', '-s', 't', '-x', String(options.width ?? 80), '-y', String(options.height ?? 24), command);
  const tmux = (...tmuxArgs: string[]): Promise<string> => {
    const next = queue.then(() => server.exec(...tmuxArgs));
    queue = next.catch(() => undefined); // a failure is the caller's, not every later command's
    return next;
  };
  await queue;

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const waitMs = options.waitMs ?? 15_000;
  const run: TerminalRun = {
    capture: (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 't'),
    keys: async (...keys) => void (await tmux('send-keys', '-t', 't', ...keys)),
    type: async (text) => void (await tmux('send-keys', '-t', 't', '-l', text)),
    waitFor: (pattern, ms = waitMs) => waitForScreen(() => run.capture(), pattern, ms),
    async exitCode(ms = waitMs) {
      const until = Date.now() + ms;
      while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8').trim() === '') {
        if (Date.now() > until) throw new Error(`The command did not end; the terminal shows:\n${await run.capture()}`);
        await sleep(50);
      }
      return Number(readFileSync(exitFile, 'utf8').trim());
    },
    display: async (format) => (await tmux('display-message', '-p', '-t', 't', format)).trimEnd(),
    close() {
      server.kill();
      rmSync(work, { recursive: true, force: true });
      if (ownHome && env.HOME) rmSync(env.HOME, { recursive: true, force: true });
    },
  };
  return run;
}

export interface TerminalFixtures {
  /** startTerminal with `env`, closed when the test ends; its waits bounded for tests run side by side (SIDE_BY_SIDE_WAIT_MS). */
  terminal(args: string[], env?: Record<string, string | undefined>, options?: Omit<TerminalOptions, 'env' | 'test'>): Promise<TerminalRun>;
  /** A tempDir, removed when the test ends. */
  scratchDir(prefix: string): string;
}

/**
 * vitest's `it` with terminals and directories of the test's own, closed and removed when it
 * ends (not in an afterEach, which would close those of the tests running beside it): so a
 * file's terminal tests can run concurrently, each mostly waiting on its terminal.
 */
export const terminalTest = test.extend<TerminalFixtures>({
  terminal: async ({ onTestFinished }, use) => {
    const runs: TerminalRun[] = [];
    await use(async (args, env = {}, options = {}) => {
      const run = await startTerminal(args, { waitMs: SIDE_BY_SIDE_WAIT_MS, ...options, env, test: { onTestFinished } });
      runs.push(run);
      return run;
    });
    for (const run of runs) run.close();
  },
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern: none
  scratchDir: async ({}, use) => {
    const dirs: string[] = [];
    await use((prefix) => {
      const dir = tempDir(prefix);
      dirs.push(dir);
      return dir;
    });
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  },
});
