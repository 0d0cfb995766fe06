/**
 * Runs the built CLI (bin/exercises.js → dist/) as a child process, the way a user or a
 * script would, and collects its exit code and output. `npm test` builds first (pretest).
 * For the launcher, signals, broken pipes and `--sandbox` end to end; everything else runs
 * in-process with test-context.ts's runInProcess, which takes the same options.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isolatedHome, tempRoot } from './temp.js';
import { tmuxDir } from './tmux-sockets.js';
import { homeDirs } from '../setup/home-check.js';

export { isolatedHome };

export const CLI_PATH = fileURLToPath(new URL('../../bin/exercises.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Raw stdout bytes, for binary output such as `image -o -`. */
  stdoutBytes: Buffer;
}

export interface RunCliOptions {
  /** Extra environment; merged over a clean one (no EXERCISES_* from the developer's shell). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. Without it stdin is closed at once. */
  input?: string | Buffer;
  cwd?: string;
  /** Kill the child after this long (the test then sees signal SIGKILL). */
  timeoutMs?: number;
  /** Start it in a session of its own (setsid): no controlling terminal, so /dev/tty cannot be opened, as under cron. */
  detached?: boolean;
  /** Called once the child is running, e.g. to send it SIGINT later. */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
}

/**
 * The environment a test run of the CLI sees: a clean one (no EXERCISES_* from the developer's
 * shell) with a private HOME and XDG dirs (a new temp HOME unless `extra` names one), then
 * `extra` on top (undefined removes a variable).
 */
export function testEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const home = extra.HOME ?? isolatedHome();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    ...homeDirs(home),
    NO_COLOR: '',
    LANG: 'C.UTF-8',
    TMPDIR: tempRoot(),
    // tmux reads this, not TMPDIR: a tmux started with this environment keeps its socket under the root too.
    TMUX_TMPDIR: tmuxDir(tempRoot()),
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  const env = testEnv(options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: options.detached === true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => {}); // the CLI may exit before reading stdin
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, signal, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes });
    });
    options.onSpawn?.(child);
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
