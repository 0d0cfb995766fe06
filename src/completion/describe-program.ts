/**
 * Walks the commander program into the completion data at build time: every visible command, flag and
 * argument, each value's completion decided from what the program says (choices, enum filters, the
 * names of placeholders and arguments), so a new flag named alike needs no change here.
 */
import type { Argument, Command, Help, Option } from 'commander';
import type { ConfigKeySpec } from '../config/settings.js';
import { COMPLETION_DATA_VERSION, type ArgumentSpec, type CommandSpec, type CompletionData, type OptionSpec, type ValueCompletion } from './data.js';
import { ENUM_FILTERS, ENUMS, type EnumName } from '../catalogue/enums.js';
import { friendlyEnumValue } from '../catalogue/enum-words.js';

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The enum each enum-valued flag takes: every query filter under its kebab-case name, and --muscle. */
const ENUM_FLAGS: ReadonlyMap<string, EnumName> = new Map<string, EnumName>([
  ...ENUM_FILTERS.map((f): [string, EnumName] => [`--${kebab(f.param)}`, f.enum]),
  ['--muscle', 'Muscle'],
]);

function enumValues(name: EnumName): ValueCompletion {
  return { values: (ENUMS[name] as readonly string[]).map(friendlyEnumValue) };
}

/** Names of value placeholders and arguments that mean a path. */
function pathKind(name: string): ValueCompletion | undefined {
  if (name === 'dir' || name === 'directory') return { kind: 'dirs' };
  if (name === 'file' || name === 'path') return { kind: 'files' };
  return undefined;
}

function placeholder(flags: string): string | undefined {
  return /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(flags)?.[1];
}

/** How a flag's value is completed: choices, an enum's values, else by its placeholder's name. */
function optionValueCompletion(option: Option): ValueCompletion | undefined {
  if (option.argChoices && option.argChoices.length > 0) return { values: [...option.argChoices] };
  const enumName = option.long ? ENUM_FLAGS.get(option.long) : undefined;
  if (enumName) return enumValues(enumName);
  const name = placeholder(option.flags);
  return name === undefined ? undefined : pathKind(name);
}

/** How an argument is completed: choices, else by its name; `commandPath` is the commands above it. */
function argumentValueCompletion(arg: Argument, commandPath: readonly string[]): ValueCompletion | undefined {
  if (arg.argChoices && arg.argChoices.length > 0) return { values: [...arg.argChoices] };
  switch (arg.name()) {
    case 'id-or-name':
    case 'id':
    case 'ids':
      return { kind: 'exercise' };
    case 'names':
      return { kind: 'media-name' };
    case 'key':
      return { kind: commandPath.at(-1) === 'set' ? 'settable-config-key' : 'config-key' };
    case 'command':
      return { kind: 'command' };
    default:
      return pathKind(arg.name());
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

function describeOption(option: Option): OptionSpec {
  const complete = option.required || option.optional ? optionValueCompletion(option) : undefined;
  return {
    flags: [option.short, option.long].filter((f): f is string => typeof f === 'string'),
    description: firstLine(option.description),
    ...(option.required ? { value: 'required' as const } : option.optional ? { value: 'optional' as const } : {}),
    ...(complete ? { complete } : {}),
  };
}

function describeArgument(arg: Argument, commandPath: readonly string[]): ArgumentSpec {
  const complete = argumentValueCompletion(arg, commandPath);
  return { name: arg.name(), variadic: arg.variadic, ...(complete ? { complete } : {}) };
}

function describeCommand(cmd: Command, help: Help, parentPath: readonly string[]): CommandSpec {
  const path = [...parentPath, cmd.name()];
  return {
    name: cmd.name(),
    aliases: [...cmd.aliases()],
    description: firstLine(cmd.summary() || cmd.description()),
    options: help.visibleOptions(cmd).map(describeOption),
    args: cmd.registeredArguments.map((a) => describeArgument(a, path)),
    // visibleCommands includes commander's implicit `help [command]`.
    commands: help.visibleCommands(cmd).map((c) => describeCommand(c, help, path)),
  };
}

export function describeProgram(program: Command, configKeys: readonly ConfigKeySpec[]): CompletionData {
  return {
    version: COMPLETION_DATA_VERSION,
    program: describeCommand(program, program.createHelp(), []),
    configKeys: configKeys.map((k) => ({ key: k.name, description: firstLine(k.description), settable: k.setWith === undefined })),
  };
}
