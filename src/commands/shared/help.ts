/**
 * Every --help, after gh's: the examples and notes a command's help ends with, the bare-group rule,
 * the layout (description, USAGE, ARGUMENTS, commands, FLAGS, INHERITED FLAGS, JSON FIELDS, EXAMPLES,
 * LEARN MORE, wrapped to the terminal) given to commander's Help, and the topics of `exercises help <topic>`.
 */
import type { Command, Help, Option } from 'commander';
import { changedBy, defaultsTable, environmentVariables } from '../../config/settings-docs.js';
import { EXIT_CODE_TABLE } from '../../errors.js';
import { displayWidth, wrap, wrapCommand } from '../../output/wrap.js';
import { RECORD_FIELDS, SUMMARY_FIELDS } from '../../output/fields.js';
import { type GlobalOptions, flagName } from '../../config/settings.js';

interface HelpExamples {
  terminal: readonly string[];
  pipelines: readonly string[];
}

const EXAMPLES = new WeakMap<Command, HelpExamples>();

export function addExamples(cmd: Command, terminal: string[], pipelines: string[]): Command {
  EXAMPLES.set(cmd, { terminal, pipelines });
  return cmd;
}

type HelpItems = readonly Item[];
type HelpNote = { title: string; text: string } | { title: string; items: HelpItems };

const NOTES = new WeakMap<Command, HelpNote[]>();

/** A section of its own before EXAMPLES: plain lines wrapped as paragraphs, indented lines kept. */
export function addNotes(cmd: Command, title: string, text: string | HelpItems): Command {
  NOTES.set(cmd, [...(NOTES.get(cmd) ?? []), typeof text === 'string' ? { title, text } : { title, items: text }]);
  return cmd;
}

export function notesOf(cmd: Command): readonly HelpNote[] {
  return NOTES.get(cmd) ?? [];
}

/** The examples given to addExamples, for the help and the man pages. */
export function examplesOf(cmd: Command): HelpExamples | undefined {
  return EXAMPLES.get(cmd);
}

/** A command that only groups others prints its help on stdout and succeeds when given nothing else, as gh does. */
export function helpWhenBare(cmd: Command): Command {
  const help = cmd.help.bind(cmd);
  cmd.help = ((context?: { error?: boolean }) => help({ ...(typeof context === 'object' ? context : {}), error: false })) as Command['help'];
  return cmd;
}

/** The commands a new user starts with; every other top-level command is ADDITIONAL. */
const CORE_COMMANDS: readonly string[] = ['query', 'ids', 'show', 'image', 'video', 'download'];

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

const JSON_FIELDS: Readonly<Record<string, readonly string[]>> = { query: SUMMARY_FIELDS, ids: SUMMARY_FIELDS, show: RECORD_FIELDS };

function sentence(text: string): string {
  const t = text.trim();
  return t === '' ? t : `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

interface Item {
  term: string;
  description: string;
}

/** Terms in a column, descriptions wrapped beside them; a term wider than two fifths of the width takes its own line. */
function itemList(items: readonly Item[], width: number, separator = '  '): string[] {
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

function section(title: string, body: readonly string[]): string[] {
  return body.length === 0 ? [] : [title, ...body, ''];
}

// gh's terms say flags, not `[options]`.
function flagItem(helper: Help, option: Option): Item {
  return { term: helper.optionTerm(option), description: sentence(helper.optionDescription(option)) };
}

function globalItems(root: Command, helper: Help, names: ReadonlyArray<keyof GlobalOptions>): Item[] {
  return names.flatMap((name) => root.options.filter((o) => o.long === flagName(name)).map((o) => flagItem(helper, o)));
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

/** A note's text at the width: paragraphs wrapped, indented lines kept. */
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

export function formatHelp(cmd: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const isRoot = !cmd.parent;
  const path: string[] = [];
  let root = cmd;
  for (; root.parent; root = root.parent) path.unshift(root.name());
  const name = root.name();
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
    const topics = Object.entries(HELP_TOPICS).map(([topic, { summary }]) => ({ term: `${topic}:`, description: sentence(summary) }));
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
  const more =
    cmd.commands.length > 0
      ? `Use \`${[name, ...path].join(' ')} <command> --help\` for more about a command.`
      : `Use \`${name} help global-flags\` for the flags every command takes.`;
  const manual = `Read the manual with \`man ${path.length > 0 ? `${name}-${path[0]}` : name}\`, or the reference in docs/.`;
  out.push(
    ...section(
      'LEARN MORE',
      [more, manual].map((t) => wrap(t, width, { indent: 2 })),
    ),
  );
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** The topics of `exercises help <topic>`: what each holds, its first line and its terms, each from its one source. */
export const HELP_TOPICS = {
  'global-flags': {
    summary: 'every flag that works with any command',
    intro: 'Global flags: they go before or after the command (exercises --sandbox ids, exercises ids --sandbox).\n',
    items: (helper: Help, program: Command): Item[] => program.options.filter((o) => !o.hidden).map((o) => flagItem(helper, o)),
  },
  defaults: {
    summary: 'every default, and the flag, variable or setting that changes it',
    intro: 'Defaults (a flag beats a variable, a variable beats the stored config, which beats these):',
    items: (): Item[] =>
      defaultsTable().map((r) => ({ term: r.name, description: `${r.value}${changedBy(r).length > 0 ? ` (${changedBy(r).join(', ')})` : ''}` })),
  },
  environment: {
    summary: 'the environment variables read',
    intro: 'Environment variables (a flag beats a variable, a variable beats the stored config):',
    items: (): Item[] => environmentVariables().map((v) => ({ term: v.name, description: v.meaning })),
  },
  'exit-codes': {
    summary: 'what each exit code means',
    intro: 'Exit codes:',
    items: (): Item[] => EXIT_CODE_TABLE.map((e) => ({ term: String(e.code).padStart(3), description: e.meaning })),
  },
} as const;

export function isHelpTopic(word: string): word is keyof typeof HELP_TOPICS {
  return Object.hasOwn(HELP_TOPICS, word);
}

/** A help topic's text at `width` columns. */
export function helpTopicText(topic: keyof typeof HELP_TOPICS, width: number, program: Command): string {
  const helper = program.createHelp();
  helper.helpWidth = width;
  const { intro, items } = HELP_TOPICS[topic];
  return `${wrap(intro, width)}\n${itemList(items(helper, program), width).join('\n')}\n`;
}
