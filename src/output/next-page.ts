/**
 * The table footer of a list ("11–20 of 67 exercises") and the command for the next page: the user's
 * arguments with the paging flags replaced and the key dropped, quoted for a POSIX shell, unsafe characters escaped.
 */
import { hasUnsafe, plural } from '../util/text.js';

/** Flags dropped from the repeated command, with whether they take a value. */
const DROPPED: Record<string, boolean> = { '--after': true, '--before': true, '--api-key': true, '--max': true, '--all': false };

/** Characters no shell needs quoted (a leading `=` or `~` would be expanded). */
const BARE = /^[A-Za-z0-9_\-.,:/@%+][A-Za-z0-9_\-.,:/=@%+]*$/;
const UNSAFE_OR_QUOTE = /[\\']|[^\u0020-\u007e]/g;

/** `$'…'` (ANSI-C quoting) with every unsafe character as `\xNN` or `\uNNNN`. */
function ansiCQuote(arg: string): string {
  const body = arg.replace(UNSAFE_OR_QUOTE, (c) => {
    if (c === '\\' || c === "'") return `\\${c}`;
    if (!hasUnsafe(c)) return c; // printable non-ASCII (é, 卧) stays as it is
    const code = c.charCodeAt(0);
    // Above 0x7f, \xNN would give a raw byte, not the character: \u gives its UTF-8.
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return `$'${body}'`;
}

/** One argument for a POSIX shell: bare when safe, else single-quoted; unsafe characters in `$'…'`, so they show and still paste. */
export function shellQuote(arg: string): string {
  if (BARE.test(arg)) return arg;
  if (hasUnsafe(arg)) return ansiCQuote(arg);
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Takes a value when the next word is no flag: `--muscle CHEST` stays on one line. */
function takesValue(word: string, next: string | undefined): boolean {
  return word.startsWith('-') && word !== '--' && !word.includes('=') && next !== undefined && !next.startsWith('-');
}

/** The next-page command as groups of words for one line: the arguments without paging flags, the key and --all; `--max` again with `max`. */
export function nextPageGroups(args: readonly string[], cursor: string, direction: 'after' | 'before' = 'after', options: { max?: number } = {}): string[][] {
  const kept: string[] = [];
  let operands: readonly string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands = args.slice(i); // the paging flags go before `--`, where they are still flags
      break;
    }
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (name in DROPPED) {
      if (DROPPED[name] && !arg.includes('=')) i++; // skip the separate value
      continue;
    }
    kept.push(arg);
  }
  const groups: string[][] = [['exercises']];
  for (let i = 0; i < kept.length; i++) {
    const word = kept[i]!;
    if (takesValue(word, kept[i + 1])) groups.push([word, kept[++i]!]);
    else if (!word.startsWith('-') && groups.length === 1)
      groups[0]!.push(word); // a command word: `exercises query`
    else groups.push([word]);
  }
  if (options.max !== undefined) groups.push(['--max', String(options.max)]);
  groups.push([`--${direction}`, cursor]);
  if (operands.length > 0) groups.push([...operands]);
  return groups.map((g) => g.map(shellQuote));
}

/** The command laid out for `width`: broken only between groups, with ` \`, so it still runs when pasted. */
export function commandLines(groups: readonly (readonly string[])[], width: number, indent = 2): string[] {
  const [first = '', ...words] = groups.map((g) => g.join(' '));
  const lines: string[] = [];
  let line = ' '.repeat(indent) + first;
  words.forEach((word, i) => {
    if (line.length + 1 + word.length + (i < words.length - 1 ? 2 : 0) > width && line.trim() !== '') {
      lines.push(`${line} \\`);
      line = `${' '.repeat(indent + 2)}${word}`;
    } else line += ` ${word}`;
  });
  lines.push(line);
  return lines;
}

export interface ListFooter {
  /** 1-based position of the first item shown, when known. */
  start?: number;
  total?: number;
  /** The wording when the position is unknown. */
  direction?: 'after' | 'before';
  /** The next page's command in groups of words (nextPageGroups), when more remain. */
  nextGroups?: string[][];
}

export interface PageFacts {
  /** The command line as typed (after `exercises`). */
  argv: readonly string[];
  direction: 'after' | 'before';
  /** No --after/--before: the items start at the top of the list. */
  fromStart: boolean;
  shown: number;
  total?: number;
  /** The next page's cursor; undefined at the end. */
  next?: string;
  max?: number;
}

/** The footer for what was shown: the position is known at the top and end only; in between "10 more of 67". */
export function pageFooter(facts: PageFacts): ListFooter {
  const next = facts.next === undefined ? undefined : nextPageGroups(facts.argv, facts.next, facts.direction, { max: facts.max });
  let start: number | undefined;
  if (facts.direction === 'after' && facts.fromStart) start = 1;
  else if (facts.next === undefined && facts.direction === 'before') start = 1;
  else if (facts.next === undefined && facts.total !== undefined && facts.total >= facts.shown) start = facts.total - facts.shown + 1;
  return {
    ...(start !== undefined ? { start } : {}),
    ...(facts.total !== undefined ? { total: facts.total } : {}),
    direction: facts.direction,
    ...(next ? { nextGroups: next } : {}),
  };
}

/** `11–20 of 67 exercises · next page: exercises ids --after …`, the command on its own lines when too wide. */
export function footerLine(shown: number, footer: ListFooter, width = Infinity): string {
  const { start, total } = footer;
  let what: string;
  if (start !== undefined) {
    const end = start + shown - 1;
    if (start === 1 && (total === undefined || total === shown)) what = plural(shown, 'exercise');
    else if (total === undefined) what = `${start}–${end} exercises`;
    else if (shown === 1) what = `exercise ${start} of ${total}`;
    else what = `${start}–${end} of ${plural(total, 'exercise')}`;
  } else if (total !== undefined) {
    what = `${shown} ${footer.direction === 'before' ? 'earlier' : 'more'} of ${plural(total, 'exercise')}`;
  } else {
    what = plural(shown, 'exercise');
  }
  if (!footer.nextGroups) return what;
  const oneLine = `${what} · next page: ${footer.nextGroups.flat().join(' ')}`;
  if (oneLine.length <= width) return oneLine;
  return [`${what} · next page:`, ...commandLines(footer.nextGroups, width)].join('\n');
}
