/**
 * When the CLI may ask a person for what is missing (DESIGN.md, "A person at the terminal"):
 * stdin and stdout are terminals, no output format was asked for (a format means a script
 * reads the output), no CI system is running it, and --no-input was not given. Everywhere
 * else a missing argument stays the usage error it always was: a prompt must never wait in a
 * pipeline or a CI job for a key nobody will press.
 */
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/** Variables CI systems set (GitHub Actions, GitLab, Jenkins, Buildkite, CircleCI, Travis, Azure…). */
const CI_VARIABLES = ['CI', 'BUILD_NUMBER', 'RUN_ID', 'CONTINUOUS_INTEGRATION', 'TF_BUILD', 'JENKINS_URL'];

export function runningInCi(env: Context['env']): boolean {
  return CI_VARIABLES.some((name) => {
    const value = env[name];
    return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
  });
}

/** True unless --no-input was given or a CI system runs the command: the person may be asked, wherever the terminal is. */
export function mayAsk(ctx: Pick<Context, 'env' | 'globals'>): boolean {
  return ctx.globals.input && !runningInCi(ctx.env);
}

/** True when a prompt may be shown (see the module comment). */
export function canPrompt(ctx: Pick<Context, 'io' | 'env' | 'globals'>): boolean {
  const { io, globals } = ctx;
  if (!mayAsk(ctx)) return false;
  if ((globals.json !== undefined && globals.json !== false) || globals.format !== undefined) return false;
  return io.stdinIsTTY && io.stdoutIsTTY;
}

/** The usage error (exit 2) for a missing id where no prompt may be shown. */
export function missingIdError(command: string, message: string): UsageError {
  return new UsageError(message, {
    hint: `At a terminal, \`exercises ${command}\` with no id opens a picker; in a script, name the exercise (\`exercises ids\` lists them).`,
  });
}
