/**
 * The layout of every --help, after gh's: the description, USAGE, ARGUMENTS, the commands
 * grouped (CORE, ADDITIONAL) or a group's AVAILABLE COMMANDS, FLAGS, INHERITED FLAGS (only the
 * few that matter for the command, and a pointer to `exercises help global-flags`), JSON
 * FIELDS, EXAMPLES and LEARN MORE, everything wrapped to the terminal's width (80 when unknown).
 * It is commander's own Help, given a formatHelp through configureHelp. What each section
 * holds for which command is help-contents.ts's; the column layout of terms and their
 * descriptions help-items.ts's.
 */
import type { Command, Help, Option } from 'commander';
import { EXIT_CODE_TABLE } from '../../errors.js';
import { wrap, wrapCommand } from '../../output/wrap.js';
import { examplesOf, notesOf } from './help.js';
import { type Item, flagItem, itemList, section, sentence } from './help-items.js';
import { CORE_COMMANDS, INHERITED, JSON_FIELDS, ROOT_FLAGS, TOPIC_SUMMARIES } from './help-contents.js';

/** The lists' layout, for the help topics too (help-topics.ts). */
export { flagItem, itemList } from './help-items.js';

/** The top-level command a (sub)command belongs to, and its path of names (`auth login`). */
function pathOf(cmd: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

function findOption(cmd: Command, long: string): Option | undefined {
  return cmd.options.find((o) => o.long === long);
}

/** `--help` for the command, then the global flags chosen for it. */
function inheritedFlags(cmd: Command, helper: Help, chosen: readonly string[]): Item[] {
  const root = rootOf(cmd);
  const items: Item[] = [{ term: '-h, --help', description: 'Show help for the command.' }];
  for (const long of chosen) {
    const option = findOption(root, long);
    if (option) items.push(flagItem(helper, option));
  }
  return items;
}

function usageLine(cmd: Command, helper: Help): string {
  if (!cmd.parent) return `${cmd.name()} <command> [flags]`;
  const usage = helper.commandUsage(cmd).replace(/\[options\]/g, '[flags]');
  return cmd.commands.length > 0 ? usage.replace(/\[command\]/, '<command>') : usage;
}

function commandItems(cmds: readonly Command[], helper: Help): Item[] {
  return cmds.map((c) => ({ term: `${c.name()}:`, description: sentence(helper.subcommandDescription(c)) }));
}

function examples(cmd: Command, width: number): string[] {
  const given = examplesOf(cmd);
  if (!given) return [];
  const lines = [...given.terminal.map((e) => wrapCommand(`$ ${e}`, width, 2))];
  if (given.pipelines.length > 0) {
    lines.push('  # in pipelines');
    lines.push(...given.pipelines.map((e) => wrapCommand(`$ ${e}`, width, 2)));
  }
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

function learnMore(cmd: Command, width: number): string[] {
  const path = pathOf(cmd);
  const name = rootOf(cmd).name();
  const text = [
    cmd.commands.length > 0
      ? `Use \`${[name, ...path].join(' ')} <command> --help\` for more about a command.`
      : `Use \`${name} help global-flags\` for the flags every command takes.`,
    `Read the manual with \`man ${path.length > 0 ? `${name}-${path[0]}` : name}\`, or the reference in docs/.`,
  ];
  return text.map((t) => wrap(t, width, { indent: 2 }));
}

/** The whole help text of `cmd`, at `helper.helpWidth` columns. */
export function formatHelp(cmd: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  const isRoot = !cmd.parent;
  const out: string[] = [];
  const description = helper.commandDescription(cmd);
  if (description) out.push(wrap(sentence(description), width), '');

  out.push(...section('USAGE', [wrap(usageLine(cmd, helper), width, { indent: 2, hanging: 4 })]));

  const args = helper.visibleArguments(cmd).map((a) => ({ term: helper.argumentTerm(a), description: sentence(helper.argumentDescription(a)) }));
  out.push(...section('ARGUMENTS', itemList(args, width)));

  // The implicit `help` command is left out: HELP TOPICS and LEARN MORE say how to get help.
  const subcommands = helper.visibleCommands(cmd).filter((c) => c.name() !== 'help');
  if (isRoot) {
    out.push(
      ...section(
        'CORE COMMANDS',
        itemList(
          commandItems(
            subcommands.filter((c) => CORE_COMMANDS.includes(c.name())),
            helper,
          ),
          width,
          ' ',
        ),
      ),
    );
    out.push(
      ...section(
        'ADDITIONAL COMMANDS',
        itemList(
          commandItems(
            subcommands.filter((c) => !CORE_COMMANDS.includes(c.name())),
            helper,
          ),
          width,
          ' ',
        ),
      ),
    );
    const topics = Object.entries(TOPIC_SUMMARIES).map(([topic, what]) => ({ term: `${topic}:`, description: sentence(what) }));
    out.push(...section('HELP TOPICS', itemList(topics, width, ' ')));
  } else {
    out.push(...section('AVAILABLE COMMANDS', itemList(commandItems(subcommands, helper), width, ' ')));
  }

  if (isRoot) {
    const flags: Item[] = [
      { term: '-h, --help', description: 'Show help for a command.' },
      { term: '-V, --version', description: 'Show the version (also `exercises version`).' },
      ...ROOT_FLAGS.flatMap((long) => {
        const option = findOption(cmd, long);
        return option ? [flagItem(helper, option)] : [];
      }),
    ];
    out.push(...section('FLAGS', [...itemList(flags, width), wrap(`See \`${cmd.name()} help global-flags\` for every global flag.`, width, { indent: 2 })]));
  } else {
    const own = helper.visibleOptions(cmd).filter((o) => o.long !== '--help');
    out.push(
      ...section(
        'FLAGS',
        itemList(
          own.map((o) => flagItem(helper, o)),
          width,
        ),
      ),
    );
    const top = pathOf(cmd)[0]!;
    out.push(
      ...section('INHERITED FLAGS', [
        ...itemList(inheritedFlags(cmd, helper, INHERITED[top] ?? []), width),
        wrap(`See \`${rootOf(cmd).name()} help global-flags\` for every global flag.`, width, { indent: 2 }),
      ]),
    );
    const fields = cmd.parent?.parent ? undefined : JSON_FIELDS[top];
    if (fields) out.push(...section('JSON FIELDS', [wrap(fields.join(', '), width, { indent: 2 })]));
  }

  for (const note of notesOf(cmd)) out.push(...section(note.title, 'text' in note ? noteLines(note.text, width) : itemList(note.items, width)));
  out.push(...section('EXAMPLES', examples(cmd, width)));
  if (isRoot) {
    const codes = EXIT_CODE_TABLE.map((e) => `${e.code} ${e.meaning.replace(/[:(].*$/, '').trim()}`).join('; ');
    out.push(...section('EXIT CODES', [wrap(`${codes}. More: \`${cmd.name()} help exit-codes\`.`, width, { indent: 2 })]));
  }
  out.push(...section('LEARN MORE', learnMore(cmd, width)));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}
