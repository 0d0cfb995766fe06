/**
 * Builds the commander program: global options, the commands, and the one place where
 * errors become text on stderr and an exit status.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { type Connection, type Context, type GlobalOptions, OUTPUT_FORMATS, processStreams } from './context.js';
import { COMMANDS } from './commands/index.js';
import { intArg } from './commands/shared/values.js';
import { RETRIES_MAX, TIMEOUT_MAX_MS } from './config/defaults.js';
import { EXIT_CODE_TABLE, ExitCode, InterruptedError } from './errors.js';
import { reportError, reportUsageErrorJson } from './output/errors.js';

/** Inlined by scripts/bundle.mjs, so the bundle reads no file for it; undefined in the plain tsc output. */
declare const EXERCISES_VERSION: string | undefined;

/** The version in our package.json (inlined in the bundle, else read from the file next to dist/). */
function packageVersion(): string {
  if (typeof EXERCISES_VERSION === 'string') return EXERCISES_VERSION;
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'exercises') return pkg.version;
    } catch {
      // not at this level
    }
  }
  return 'unknown';
}

const EXIT_CODES_HELP = `\nExit codes:\n${EXIT_CODE_TABLE.map((e) => `  ${String(e.code).padStart(3)}  ${e.meaning}`).join('\n')}\n`;

export interface ProgramHooks {
  /** Builds the context a command runs with, from the program's parsed global options. */
  context(program: Command): Context;
}

/** The top-level command names; bin/exercises.js names its per-command code caches after them. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name);

/**
 * The command a command line runs, when that is plain: the first argument after the global
 * options, if it names one of COMMANDS. Undefined for anything else (no command, --help,
 * `help`, an unknown flag or command…), and then every command is declared as usual.
 */
function requestedCommand(program: Command, args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-' || !arg.startsWith('-')) return COMMANDS.some((c) => c.name === arg) ? arg : undefined;
    const flag = arg.startsWith('--') ? arg.split('=')[0] : arg;
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    if (!option || option.optional) return undefined;
    if (option.required && flag === arg) i++; // its value is the next argument
  }
  return undefined;
}

/**
 * The program with its global options and commands. Given the command line (`argv`), it
 * declares only the command that line runs, when that is plain: declaring all of them, with
 * every flag and help text, is a good part of the start-up time of a one-request command
 * such as `show`. `--help`, `help` and errors about unknown commands still see every command.
 */
export function buildProgram(hooks: ProgramHooks, argv?: readonly string[]): Command {
  const program = new Command('exercises')
    .description('Browse, search and download the exercise catalogue.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option('--base-url <url>', 'service base URL (env EXERCISES_BASE_URL)')
    .option('--api-key <key>', 'API key (discouraged: visible in ps and shell history; env EXERCISES_API_KEY)')
    .option('--lang <code>', 'translation language, e.g. de-DE (env EXERCISES_LANG)')
    .addOption(new Option('--format <format>', 'output format (default: table on a terminal, tsv in a pipe)').choices(OUTPUT_FORMATS))
    .option('--json', 'same as --format json')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('--timeout <ms>', 'give up on a request after this long without progress', intArg('--timeout', 1, TIMEOUT_MAX_MS))
    .option('--retries <n>', 'retries for failed idempotent requests', intArg('--retries', 0, RETRIES_MAX))
    .option('-v, --verbose', 'log requests, timings and quota headers to stderr (key redacted)', false)
    .option('-q, --quiet', 'no progress or notices on stderr', false)
    .option('--allow-insecure', 'allow plain http:// to a non-loopback host', false)
    .option('--sandbox', 'use the built-in sample catalogue on a private local server (no key, no network)', false)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride();

  const only = argv === undefined ? undefined : requestedCommand(program, argv.slice(2));
  for (const { name, register } of COMMANDS) {
    if (only === undefined || name === only) register(program, () => hooks.context(program));
  }
  return program;
}

export function globalOptions(program: Command): GlobalOptions {
  const o = program.opts();
  return {
    baseUrl: o.baseUrl,
    apiKey: o.apiKey,
    lang: o.lang,
    format: o.format,
    json: o.json,
    color: o.color !== false,
    timeout: o.timeout,
    retries: o.retries,
    verbose: o.verbose === true,
    quiet: o.quiet === true,
    sandbox: o.sandbox === true,
    allowInsecure: o.allowInsecure === true,
  };
}

/** Entry point used by bin/exercises.js. Sets process.exitCode; never calls process.exit on success. */
export async function main(argv: string[]): Promise<void> {
  const io = processStreams();
  const exitHooks: Array<() => void | Promise<void>> = [];
  const controller = new AbortController();
  let context: Context | undefined;
  let connection: Promise<Connection> | undefined;

  // A closed pipe (`exercises ids --all | head`) is not an error: stop quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });

  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED); // second Ctrl-C: leave now
    controller.abort(new InterruptedError());
    // Work that watches the signal cleans up and throws InterruptedError; give it a moment, no more.
    setTimeout(() => process.exit(ExitCode.INTERRUPTED), 3000).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const program = buildProgram(
    {
      context(p) {
        context ??= {
          io,
          env: process.env,
          argv: argv.slice(2),
          globals: globalOptions(p),
          signal: controller.signal,
          onExit: (fn) => exitHooks.push(fn),
          connection: () => (connection ??= import('./commands/shared/connection.js').then((m) => m.decideConnection(context!))),
        };
        return context;
      },
    },
    argv,
  );

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version are displayed by commander and are successes; anything else is a usage error.
      process.exitCode = err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
      if (err.exitCode !== 0) reportUsageErrorJson(err.message, { io, env: process.env, globals: context?.globals ?? globalOptions(program) });
    } else {
      const globals = context?.globals ?? globalOptions(program);
      process.exitCode = reportError(err, { io, env: process.env, globals });
    }
  } finally {
    for (const fn of exitHooks.reverse()) {
      try {
        await fn();
      } catch {
        // Cleanup must never mask the command's own outcome.
      }
    }
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
