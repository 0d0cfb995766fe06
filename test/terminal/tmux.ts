/**
 * A real terminal for tests: the built CLI run in a detached tmux session (80×24 unless told)
 * on a private tmux server (test/helpers/tmux.ts: its own socket under the run's temp root, so
 * nothing touches a developer's sessions, and a server left running fails the test), driven
 * with send-keys and read with capture-pane. The command runs with exactly the environment
 * given (env -i), and its exit code is written to a file when it ends.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_PATH, testEnv } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { tmuxServer, waitForScreen } from '../helpers/tmux.js';

/** True when tmux can be run here; tests that need it skip (with a message) when not. */
export { HAVE_TMUX, NO_TMUX_MESSAGE } from '../helpers/tmux.js';

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface TerminalRun {
  /** The pane's text; with `escapes`, with its colours and attributes as escape sequences (capture-pane -e). */
  capture(escapes?: boolean): string;
  /** send-keys: literal text, or key names such as Enter, Escape, C-c. */
  keys(...keys: string[]): void;
  type(text: string): void;
  /** Waits until the pane shows `pattern` (or throws after `ms`). */
  waitFor(pattern: RegExp | string, ms?: number): Promise<string>;
  /** Waits for the command to end; its exit code. */
  exitCode(ms?: number): Promise<number>;
  /** tmux's own view of the pane (e.g. `#{pane_title}`). */
  display(format: string): string;
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
}

export function startTerminal(args: string[], options: TerminalOptions = {}): TerminalRun {
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
  const server = tmuxServer('exercises-term');
  const tmux = server.exec;
  tmux('new-session', '-d', '-s', 't', '-x', String(options.width ?? 80), '-y', String(options.height ?? 24), command);

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const run: TerminalRun = {
    capture: (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 't'),
    keys: (...keys) => void tmux('send-keys', '-t', 't', ...keys),
    type: (text) => void tmux('send-keys', '-t', 't', '-l', text),
    waitFor: (pattern, ms = 15_000) => waitForScreen(() => run.capture(), pattern, ms),
    async exitCode(ms = 15_000) {
      const until = Date.now() + ms;
      while (!existsSync(exitFile) || readFileSync(exitFile, 'utf8').trim() === '') {
        if (Date.now() > until) throw new Error(`The command did not end; the terminal shows:\n${run.capture()}`);
        await sleep(100);
      }
      return Number(readFileSync(exitFile, 'utf8').trim());
    },
    display: (format) => tmux('display-message', '-p', '-t', 't', format).trimEnd(),
    close() {
      server.kill();
      rmSync(work, { recursive: true, force: true });
      if (ownHome && env.HOME) rmSync(env.HOME, { recursive: true, force: true });
    },
  };
  return run;
}
