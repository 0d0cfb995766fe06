/**
 * Word wrapping for text meant for a person (help, errors, notices) at the terminal's width:
 * lines break at spaces, never inside a word, and a word longer than the line (a URL, a path)
 * stands alone on its line rather than being cut. Widths ignore colour codes (SGR), which take
 * no column; the text is otherwise plain (help and messages are ASCII or already clean).
 */
import { shorten } from '../util/text.js';

const SGR = /\u001b\[[0-9;]*m/g;

/** Columns a line takes: its length without colour codes. */
export function displayWidth(text: string): number {
  return text.replace(SGR, '').length;
}

export interface WrapOptions {
  /** Spaces before the first line (default 0). */
  indent?: number;
  /** Spaces before every further line (default: `indent`). */
  hanging?: number;
  /** Columns a word takes (default displayWidth). */
  measure?: (text: string) => number;
}

/**
 * `text` wrapped to `width` columns, each paragraph (line of the input) on its own. The
 * narrowest width honoured is 20 columns: below it a terminal breaks words anyway.
 */
export function wrap(text: string, width: number, options: WrapOptions = {}): string {
  const indent = options.indent ?? 0;
  const hanging = options.hanging ?? indent;
  const measure = options.measure ?? displayWidth;
  const room = Math.max(width, 20);
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    const [first, ...words] = paragraph.split(' ').filter((w) => w !== '');
    if (first === undefined) {
      out.push('');
      continue;
    }
    let line = ' '.repeat(indent) + first;
    let lineWidth = indent + measure(first);
    for (const word of words) {
      const w = measure(word);
      if (lineWidth + 1 + w > room) {
        out.push(line);
        line = ' '.repeat(hanging) + word;
        lineWidth = hanging + w;
      } else {
        line += ` ${word}`;
        lineWidth += 1 + w;
      }
    }
    out.push(line);
  }
  return out.join('\n');
}

/**
 * Lines for a person, wrapped to the terminal they go to (`tty`), as they are otherwise: a
 * pipe or a file gets each line whole, for tools to read.
 */
export function fitLines(text: string, tty: boolean, width: number, options: WrapOptions = {}): string {
  return tty ? wrap(text, width, options) : text;
}

/**
 * A shell command line wrapped for an example: breaks at spaces outside quotes, each broken
 * line ending in ` \` so that the example still pastes as one command.
 */
export function wrapCommand(given: string, width: number, indent: number): string {
  // Comments aligned with spaces in the source are one space from their command here.
  const command = given.replace(/ {2,}# /, ' # ');
  // A trailing comment too long for the line goes on a line of its own above the command:
  // a comment cannot be continued with ` \`.
  const comment = / # [^"']*$/.exec(command);
  if (comment && indent + command.length > Math.max(width, 20)) {
    const lead = command.startsWith('$ ') ? 2 : 0;
    return `${wrap(`# ${comment[0].slice(3)}`, width, { indent: indent + lead, hanging: indent + lead + 2 })}\n${wrapCommand(command.slice(0, comment.index), width, indent)}`;
  }
  // Words between spaces, a quoted part (up to its closing quote, or the end) with its spaces.
  const words = command.match(/(?:[^ "']|"[^"]*"?|'[^']*'?)+/g) ?? [];
  const room = Math.max(width, 20) - 2; // room for the ` \`
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const pad = lines.length === 0 ? indent : indent + 2;
    if (line !== '' && pad + line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines.map((l, i) => `${' '.repeat(i === 0 ? indent : indent + 2)}${l}${i < lines.length - 1 ? ' \\' : ''}`).join('\n');
}

/** Where a stderr message goes: whether it is a terminal, and how wide. */
export interface StderrShape {
  stderrIsTTY: boolean;
  columns: number;
}

/**
 * A message for stderr (an error, a hint, a notice, a summary) as every one is shown: wrapped
 * at the terminal's width when stderr is one, whole in a log or a pipe (one line for grep).
 */
export function noticeLines(text: string, io: StderrShape, options: WrapOptions = {}): string {
  return fitLines(text, io.stderrIsTTY, io.columns, options);
}

/**
 * A line redrawn in place (`\r`, a progress count): cut to one column less than the terminal,
 * since wrapping would leave the redraw on the wrong row.
 */
export function progressText(text: string, columns: number): string {
  return shorten(text, Math.max(columns - 1, 10));
}
