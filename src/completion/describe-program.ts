/**
 * Walks the commander program into the completion data (data.ts): every visible command,
 * flag and argument, as `--help` shows them, with how each value is completed
 * (value-rules.ts). Run at build time by scripts/completion-data.mjs over the real
 * program, so the data always matches the CLI that was built.
 */
import type { Argument, Command, Help, Option } from 'commander';
import type { ConfigKeySpec } from '../config/settings.js';
import { COMPLETION_DATA_VERSION, type ArgumentSpec, type CommandSpec, type CompletionData, type OptionSpec } from './data.js';
import { argumentValueCompletion, optionValueCompletion } from './value-rules.js';

/** One line is enough beside a candidate in zsh and fish. */
function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

function describeOption(option: Option): OptionSpec {
  const complete =
    option.required || option.optional ? optionValueCompletion({ flags: option.flags, long: option.long, choices: option.argChoices }) : undefined;
  return {
    flags: [option.short, option.long].filter((f): f is string => typeof f === 'string'),
    description: firstLine(option.description),
    ...(option.required ? { value: 'required' as const } : option.optional ? { value: 'optional' as const } : {}),
    ...(complete ? { complete } : {}),
  };
}

function describeArgument(arg: Argument, commandPath: readonly string[]): ArgumentSpec {
  const complete = argumentValueCompletion({ name: arg.name(), choices: arg.argChoices, commandPath });
  return { name: arg.name(), variadic: arg.variadic, ...(complete ? { complete } : {}) };
}

function describeCommand(cmd: Command, help: Help, parentPath: readonly string[]): CommandSpec {
  const path = [...parentPath, cmd.name()];
  return {
    name: cmd.name(),
    aliases: [...cmd.aliases()],
    description: firstLine(cmd.description()),
    options: help.visibleOptions(cmd).map(describeOption),
    args: cmd.registeredArguments.map((a) => describeArgument(a, path)),
    // visibleCommands includes commander's implicit `help [command]`.
    commands: help.visibleCommands(cmd).map((c) => describeCommand(c, help, path)),
  };
}

/** The program must declare every command (buildProgram without a command line does). */
export function describeProgram(program: Command, configKeys: readonly ConfigKeySpec[]): CompletionData {
  return {
    version: COMPLETION_DATA_VERSION,
    program: describeCommand(program, program.createHelp(), []),
    configKeys: configKeys.map((k) => ({ key: k.key, description: firstLine(k.description), settable: k.setWith === undefined })),
  };
}
