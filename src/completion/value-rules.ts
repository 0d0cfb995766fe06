/**
 * How the values of flags and arguments are completed, decided from what the commander
 * program already says about them (choices, the enum filters, the names of value
 * placeholders and arguments), so a new flag or command is completed without a change here
 * as long as it follows the same naming.
 */
import { ENUM_FILTERS, ENUMS, type EnumName } from '../catalogue/enums.js';
import { friendlyEnumValue } from '../catalogue/enum-words.js';
import type { ValueCompletion } from './data.js';

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The enum each enum-valued flag takes: every filter of /exercise/query under its kebab-case
 * name (shared/query-filters.ts declares them so), and --muscle, the short name of
 * --primary-muscle.
 */
const ENUM_FLAGS: ReadonlyMap<string, EnumName> = new Map<string, EnumName>([
  ...ENUM_FILTERS.map((f): [string, EnumName] => [`--${kebab(f.param)}`, f.enum]),
  ['--muscle', 'Muscle'],
]);

function enumValues(name: EnumName): ValueCompletion {
  // The service's order (beginner before expert); the shell sorts the candidates if it likes.
  return { values: (ENUMS[name] as readonly string[]).map(friendlyEnumValue) };
}

/** Names of value placeholders and arguments that mean a path. */
function pathKind(name: string): ValueCompletion | undefined {
  if (name === 'dir' || name === 'directory') return { kind: 'dirs' };
  if (name === 'file' || name === 'path') return { kind: 'files' };
  return undefined;
}

/** The placeholder of a flag's value: `dir` in `--dir <dir>`, `fields` in `--json [fields]`. */
function placeholder(flags: string): string | undefined {
  return /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(flags)?.[1];
}

export interface OptionFacts {
  flags: string;
  long?: string;
  choices?: readonly string[];
}

export function optionValueCompletion(option: OptionFacts): ValueCompletion | undefined {
  if (option.choices && option.choices.length > 0) return { values: [...option.choices] };
  const enumName = option.long ? ENUM_FLAGS.get(option.long) : undefined;
  if (enumName) return enumValues(enumName);
  const name = placeholder(option.flags);
  return name === undefined ? undefined : pathKind(name);
}

export interface ArgumentFacts {
  name: string;
  choices?: readonly string[];
  /** The names of the commands above it, program first: ['exercises', 'config', 'set']. */
  commandPath: readonly string[];
}

export function argumentValueCompletion(arg: ArgumentFacts): ValueCompletion | undefined {
  if (arg.choices && arg.choices.length > 0) return { values: [...arg.choices] };
  switch (arg.name) {
    case 'id-or-name':
    case 'id':
    case 'ids':
      return { kind: 'exercise' };
    case 'names':
      return { kind: 'media-name' };
    case 'key':
      return { kind: arg.commandPath.at(-1) === 'set' ? 'settable-config-key' : 'config-key' };
    case 'command':
      return { kind: 'command' };
    default:
      return pathKind(arg.name);
  }
}
