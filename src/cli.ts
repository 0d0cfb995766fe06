/**
 * Builds the commander program (global options, the commands) and runs a command line with a
 * Context: runCli() is the one place where errors become text on stderr and an exit code, and
 * it never touches `process`; main() wires the process to it (streams, signals, exit code).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option, type OutputConfiguration } from 'commander';
import { explicitJsonFlag, jsonFlagValue, settingArg, assertGlobalFlags } from './commands/shared/flags.js';
import { flagArities, leadingWords } from './config/parsers.js';
import { type Context, type ServerSignal, colorEnabled } from './context.js';
import { GLOBAL_FLAGS, type GlobalFlag, type GlobalOptions, flagHelp, flagName, readGlobalFlags, checkedOnEntry } from './config/settings.js';
import { COMMANDS, type Runners } from './commands/index.js';
import { HELP_TOPICS, addExamples, formatHelp, helpTopicText, helpWhenBare, isHelpTopic } from './commands/shared/help.js';
import { ExitCode, type ExitCodeValue, InterruptedError, UsageError } from './errors.js';
import { createContext } from './factory.js';
import { processStreams } from './output/streams.js';
import { commanderUsageError, reportError } from './output/errors.js';
import { closestWords, orList } from './catalogue/suggest.js';

/** Inlined by scripts/bundle.mjs, so the bundle reads no file for it; undefined in the plain tsc output. */
declare const EXERCISES_VERSION: string | undefined;

/** The version in our package.json (inlined in the bundle, else read from the one beside src/ or dist/). */
function packageVersion(): string {
  if (typeof EXERCISES_VERSION === 'string') return EXERCISES_VERSION;
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

interface ProgramHooks {
  /** The context a command runs with, given the parsed program and the top-level command that runs. */
  context(program: Command, command: string): Context;
  /** Where commander writes help, version and its own errors (default: the process's streams). */
  output?: Pick<Context, 'io' | 'env'>;
  /** Replaces commands' run(options, ctx), e.g. for a test of option parsing alone. */
  runners?: Runners;
}

/** Each spelling of the program's own flags (the global ones and --version), with how it takes a value. */
const PROGRAM_FLAGS = flagArities([...GLOBAL_FLAGS.map((f) => f.flag), '-V, --version']);

/** commander's output goes to the context's streams, sized and coloured by their facts. */
function outputTo(program: Command, { io, env }: Pick<Context, 'io' | 'env'>): OutputConfiguration {
  const color = (stream: 'stdout' | 'stderr'): boolean => colorEnabled({ io, env, globals: globalOptions(program) }, stream);
  return {
    writeOut: (text) => void io.stdout.write(text),
    writeErr: (text) => void io.stderr.write(text),
    // 80 when the width is unknown (a pipe), as commander does itself.
    getOutHelpWidth: () => io.columns,
    getErrHelpWidth: () => io.columns,
    getOutHasColors: () => color('stdout'),
    getErrHasColors: () => color('stderr'),
  };
}

/** The program with its global options and every command. */
export function buildProgram(hooks: ProgramHooks): Command {
  const program = new Command('exercises');
  // Before any command is declared: subcommands copy the output settings and the exit override.
  if (hooks.output) program.configureOutput(outputTo(program, hooks.output));
  // gh's layout for every command's help (commands/shared/help.ts), subcommands included.
  program.configureHelp({ formatHelp });
  program.exitOverride().description('Browse, search and download the exercise catalogue.').version(packageVersion(), '-V, --version', 'print the version');
  for (const flag of GLOBAL_FLAGS) program.addOption(globalOption(flag));
  // The top-level command that runs (`auth` for `auth login`), as commander resolved it, told to the context (never guessed from argv).
  let running = '';
  program
    // The global flags are checked together before any command's action (and its first request).
    .hook('preAction', (_program, action) => {
      running = commandPath(action).split(' ')[1] ?? '';
      assertGlobalFlags(globalOptions(program));
    });
  helpWhenBare(program);
  addExamples(
    program,
    ['exercises query --muscle chest --level beginner', 'exercises show Barbell_Bench_Press', 'exercises image Plank --dir media', 'exercises --sandbox ids'],
    [
      'exercises ids --all | wc -l',
      'exercises query --muscle chest --all --json id,name | jq -r ".exercises[].id"',
      'exercises ids --max 3 | cut -f1 | exercises show -',
    ],
  );

  const context = (): Context => hooks.context(program, running);
  for (const { name, register } of COMMANDS) register(program, context, hooks.runners?.[name] as never);
  return program;
}

/** Every command of the tree, the program first. */
function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}

/** `exercises auth login`: the words that run a command, for a hint naming its --help. */
function commandPath(cmd: Command): string {
  return cmd.parent ? `${commandPath(cmd.parent)} ${cmd.name()}` : cmd.name();
}

export function globalOptions(program: Command): GlobalOptions {
  const opts = program.opts();
  return { ...readGlobalFlags(opts), json: jsonFlagValue(opts.json) };
}

/** A row of GLOBAL_FLAGS as a commander option, with the setting's own parser for a number or a duration, so a bad value is refused before any request. */
function globalOption(flag: GlobalFlag): Option {
  const option = new Option(flag.flag, flagHelp(flag));
  if (flag.choices) option.choices(flag.choices);
  // A switch takes no value to parse (its parser reads the variable and the stored value).
  if (checkedOnEntry(flag) && flag.type !== 'switch') option.argParser(settingArg(flagName(flag.field), (text, name) => flag.parser!(text, name, flag)));
  return option;
}

/**
 * Runs one command line (the arguments after `exercises`) with a context, and returns the exit
 * code: 0, or the code of the error it reported on the context's stderr. Never touches
 * `process`; the context's onExit work (servers, connection pools) is done before it returns.
 */
export async function runCli(given: readonly string[], ctx: Context, seams: Pick<ProgramHooks, 'runners'> = {}): Promise<ExitCodeValue> {
  ctx.argv = [...given];
  const args = explicitJsonFlag(given);
  const program = buildProgram({
    output: ctx,
    runners: seams.runners,
    context(p, command) {
      ctx.globals = globalOptions(p);
      ctx.command = command;
      return ctx;
    },
  });
  // commander's own errors are not printed by commander: runCli reports them in the tool's
  // style, naming the help of the command that failed (recorded here).
  let failed: Command = program;
  for (const cmd of allCommands(program)) cmd.configureOutput({ outputError: () => void (failed = cmd) });
  try {
    const { words } = leadingWords(args, PROGRAM_FLAGS);
    // `exercises version` as gh has it, the same as --version.
    if (words.length === 1 && words[0] === 'version') {
      ctx.io.stdout.write(`${packageVersion()}\n`);
      return ExitCode.OK;
    }
    if (words[0] === 'help' && words.length >= 2) {
      const [, topic, ...more] = words;
      if (isHelpTopic(topic!) && more.length === 0) {
        ctx.io.stdout.write(helpTopicText(topic, ctx.io.columns, program));
        return ExitCode.OK;
      }
      const known = program.commands.map((c) => c.name()).filter((n) => n !== 'help');
      if (!known.includes(topic!)) {
        const near = closestWords(topic!, [...known, ...Object.keys(HELP_TOPICS)]);
        throw new UsageError(`No help topic or command is called "${topic}".${near.length ? ` Did you mean ${orList(near)}?` : ''}`, {
          hint: `Run \`exercises help\` for the commands and help topics.`,
        });
      }
    }
    await program.parseAsync([...args], { from: 'user' });
    return ExitCode.OK;
  } catch (err) {
    // Help and version are displayed by commander and are successes; any other of its errors is a usage error.
    if (err instanceof CommanderError && err.exitCode === 0) return ExitCode.OK;
    const reported = err instanceof CommanderError ? commanderUsageError(err, commandPath(failed)) : err;
    // Until a command runs, errors are reported with what commander has parsed so far.
    return reportError(reported, { io: ctx.io, env: ctx.env, globals: globalOptions(program) });
  } finally {
    await ctx.close();
  }
}

/**
 * Entry point used by bin/exercises.js (`argv` is process.argv): builds the real context over
 * the process's streams and environment, turns SIGINT/SIGTERM into the context's abort signal,
 * and sets process.exitCode from runCli. Never calls process.exit on success.
 */
export async function main(argv: string[]): Promise<void> {
  // A closed pipe (`exercises ids --all | head`) is not an error: stop quietly.
  const leaveQuietly = (): never => process.exit(process.exitCode ?? 0);
  const controller = new AbortController();

  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(ExitCode.INTERRUPTED); // second Ctrl-C: leave now
    controller.abort(new InterruptedError());
    // Work that watches the signal cleans up and throws InterruptedError; give it a moment, no more.
    setTimeout(() => process.exit(ExitCode.INTERRUPTED), 3000).unref();
  };
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.on(signal, onSignal);

  // SIGHUP and SIGUSR1 keep their defaults unless a command listens: only `serve` does, to reread its files and reopen its log.
  const listen = (signal: ServerSignal, listener: () => void): (() => void) => {
    process.on(signal, listener);
    return () => void process.off(signal, listener);
  };
  const ctx = createContext({ io: processStreams(leaveQuietly), env: process.env, signal: controller.signal, onSignal: listen });
  try {
    process.exitCode = await runCli(argv.slice(2), ctx);
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
  }
}
