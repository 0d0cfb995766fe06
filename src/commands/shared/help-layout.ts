/**
 * The layout of every --help, after gh's: the description, USAGE, ARGUMENTS, the commands
 * grouped (CORE, ADDITIONAL) or a group's AVAILABLE COMMANDS, FLAGS, INHERITED FLAGS (only the
 * few that matter for the command, and a pointer to `exercises help global-flags`), JSON
 * FIELDS, EXAMPLES and LEARN MORE, everything wrapped to the terminal's width (80 when unknown).
 * It is commander's own Help, given a formatHelp through configureHelp; the lists' column
 * layout (itemList) serves the help topics too (help-topics.ts).
 */
import type { Command, Help, Option } from 'commander';
import { EXIT_CODE_TABLE } from '../../errors.js';
import { displayWidth, wrap, wrapCommand } from '../../output/wrap.js';
import { RECORD_FIELDS, SUMMARY_FIELDS } from '../../output/fields.js';
import { type GlobalOptions, flagName } from '../../config/settings.js';
import { examplesOf, notesOf } from './help.js';

/** The commands a new user starts with; every other top-level command is ADDITIONAL. */
const CORE_COMMANDS: readonly string[] = ['query', 'ids', 'show', 'image', 'video', 'download'];

/** The help topics of `exercises help <topic>`, with what each holds. */
const TOPIC_SUMMARIES: Readonly<Record<string, string>> = {
  'global-flags': 'every flag that works with any command',
  defaults: 'every default, and the flag, variable or setting that changes it',
  environment: 'the environment variables read',
  'exit-codes': 'what each exit code means',
};

/** The global flags worth showing under a command (its INHERITED FLAGS); the rest are one topic away. */
const INHERITED: Readonly<Record<string, ReadonlyArray<keyof GlobalOptions>>> = {
  query: ['format', 'json', 'lang', 'sandbox'],
  ids: ['format', 'json', 'lang', 'sandbox'],
  show: ['format', 'json', 'lang', 'sandbox'],
  image: ['quiet', 'budget', 'sandbox'],
  video: ['quiet', 'budget', 'sandbox'],
  download: ['quiet', 'budget', 'sandbox'],
  mirror: ['quiet', 'budget'],
  quota: ['json'],
};

/** The flags the top-level help shows besides --help and --version. */
const ROOT_FLAGS: ReadonlyArray<keyof GlobalOptions> = ['sandbox', 'json', 'quiet'];

/** The fields `--json <fields>` accepts, by command. */
const JSON_FIELDS: Readonly<Record<string, readonly string[]>> = { query: SUMMARY_FIELDS, ids: SUMMARY_FIELDS, show: RECORD_FIELDS };

/** The description as a sentence: capital first letter, full stop at the end. */
function sentence(text: string): string {
  const t = text.trim();
  return t === '' ? t : `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

interface Item {
  term: string;
  description: string;
}

/**
 * Terms in a column, descriptions wrapped beside them. A term longer than the column
 * (at most two fifths of the width) takes its own line, its description below it.
 */
export function itemList(items: readonly Item[], width: number, separator = '  '): string[] {
  if (items.length === 0) return [];
  const column = Math.min(Math.max(...items.map((i) => displayWidth(i.term))), Math.max(12, Math.floor(width * 0.4)));
  const descIndent = 2 + column + separator.length;
  return items.map(({ term, description }) => {
    if (description === '') return `  ${term}`;
    if (displayWidth(term) > column) return `  ${term}\n${wrap(description, width, { indent: descIndent })}`;
    const lead = `  ${term}${' '.repeat(column - displayWidth(term))}${separator}`;
    const wrapped = wrap(description, width - descIndent, { indent: 0 }).split('\n');
    return wrapped.map((l, i) => (i === 0 ? lead : ' '.repeat(descIndent)) + l).join('\n');
  });
}

/** A titled section, or nothing when it has no lines. */
function section(title: string, body: readonly string[]): string[] {
  return body.length === 0 ? [] : [title, ...body, ''];
}

// Commander's terms say `[options]`; gh's say flags. No `(default: …)` noise for booleans (commander adds none).
export function flagItem(helper: Help, option: Option): Item {
  return { term: helper.optionTerm(option), description: sentence(helper.optionDescription(option)) };
}

/** The program's global flags `names`, as items. */
function globalItems(root: Command, helper: Help, names: ReadonlyArray<keyof GlobalOptions>): Item[] {
  return names.flatMap((name) => root.options.filter((o) => o.long === flagName(name)).map((o) => flagItem(helper, o)));
}

/** The path of names of a (sub)command under the program (`auth login`). */
function pathOf(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

function usageLine(cmd: Command, helper: Help): string {
  if (!cmd.parent) return `${cmd.name()} <command> [flags]`;
  const usage = helper.commandUsage(cmd).replace(/\[options\]/g, '[flags]');
  return cmd.commands.length > 0 ? usage.replace(/\[command\]/, '<command>') : usage;
}

function commandList(cmds: readonly Command[], helper: Help, width: number): string[] {
  return itemList(
    cmds.map((c) => ({ term: `${c.name()}:`, description: sentence(helper.subcommandDescription(c)) })),
    width,
    ' ',
  );
}

function examples(cmd: Command, width: number): string[] {
  const given = examplesOf(cmd);
  if (!given) return [];
  const lines = given.terminal.map((e) => wrapCommand(`$ ${e}`, width, 2));
  if (given.pipelines.length > 0) lines.push('  # in pipelines', ...given.pipelines.map((e) => wrapCommand(`$ ${e}`, width, 2)));
  return lines;
}

/** A note's text at the width: paragraphs wrapped, indented lines kept (wrapped as commands when too long). */
function noteLines(text: string, width: number): string[] {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) out.push(wrap(paragraph.join(' '), width, { indent: 2 }));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
    } else if (/^\s/.test(line)) {
      flush();
      const indent = 2 + line.length - line.trimStart().length;
      out.push(indent + line.trim().length <= width ? `${' '.repeat(indent)}${line.trim()}` : wrapCommand(line.trim(), width, indent));
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  while (out[out.length - 1] === '') out.pop();
  return out;
}

/** The whole help text of `cmd`, at `helper.helpWidth` columns. */
export function formatHelp(cmd: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const isRoot = !cmd.parent;
  let root = cmd;
  while (root.parent) root = root.parent;
  const name = root.name();
  const path = pathOf(cmd);
  const allFlags = wrap(`See \`${name} help global-flags\` for every global flag.`, width, { indent: 2 });
  const out: string[] = [];
  const description = helper.commandDescription(cmd);
  if (description) out.push(wrap(sentence(description), width), '');
  out.push(...section('USAGE', [wrap(usageLine(cmd, helper), width, { indent: 2, hanging: 4 })]));
  const args = helper.visibleArguments(cmd).map((a) => ({ term: helper.argumentTerm(a), description: sentence(helper.argumentDescription(a)) }));
  out.push(...section('ARGUMENTS', itemList(args, width)));
  // The implicit `help` command is left out: HELP TOPICS and LEARN MORE say how to get help.
  const subcommands = helper.visibleCommands(cmd).filter((c) => c.name() !== 'help');
  if (isRoot) {
    const topics = Object.entries(TOPIC_SUMMARIES).map(([topic, what]) => ({ term: `${topic}:`, description: sentence(what) }));
    const flags: Item[] = [
      { term: '-h, --help', description: 'Show help for a command.' },
      { term: '-V, --version', description: 'Show the version (also `exercises version`).' },
      ...globalItems(root, helper, ROOT_FLAGS),
    ];
    const core = subcommands.filter((c) => CORE_COMMANDS.includes(c.name()));
    const additional = subcommands.filter((c) => !core.includes(c));
    out.push(
      ...section('CORE COMMANDS', commandList(core, helper, width)),
      ...section('ADDITIONAL COMMANDS', commandList(additional, helper, width)),
      ...section('HELP TOPICS', itemList(topics, width, ' ')),
      ...section('FLAGS', [...itemList(flags, width), allFlags]),
    );
  } else {
    const own = helper.visibleOptions(cmd).flatMap((o) => (o.long === '--help' ? [] : [flagItem(helper, o)]));
    const inherited = [{ term: '-h, --help', description: 'Show help for the command.' }, ...globalItems(root, helper, INHERITED[path[0]!] ?? [])];
    const fields = path.length === 1 ? JSON_FIELDS[path[0]!] : undefined;
    out.push(
      ...section('AVAILABLE COMMANDS', commandList(subcommands, helper, width)),
      ...section('FLAGS', itemList(own, width)),
      ...section('INHERITED FLAGS', [...itemList(inherited, width), allFlags]),
      ...(fields ? section('JSON FIELDS', [wrap(fields.join(', '), width, { indent: 2 })]) : []),
    );
  }
  for (const note of notesOf(cmd)) out.push(...section(note.title, 'text' in note ? noteLines(note.text, width) : itemList(note.items, width)));
  out.push(...section('EXAMPLES', examples(cmd, width)));
  if (isRoot) {
    const codes = EXIT_CODE_TABLE.map((e) => `${e.code} ${e.meaning.replace(/[:(].*$/, '').trim()}`).join('; ');
    out.push(...section('EXIT CODES', [wrap(`${codes}. More: \`${name} help exit-codes\`.`, width, { indent: 2 })]));
  }
  const learnMore = [
    cmd.commands.length > 0
      ? `Use \`${[name, ...path].join(' ')} <command> --help\` for more about a command.`
      : `Use \`${name} help global-flags\` for the flags every command takes.`,
    `Read the manual with \`man ${path.length > 0 ? `${name}-${path[0]}` : name}\`, or the reference in docs/.`,
  ];
  out.push(
    ...section(
      'LEARN MORE',
      learnMore.map((t) => wrap(t, width, { indent: 2 })),
    ),
  );
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
