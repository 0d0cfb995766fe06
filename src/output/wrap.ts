/**
 * Word wrapping for text meant for a person at the terminal's width: breaks at spaces, a word longer
 * than the line stands alone rather than being cut; colour codes take no column.
 */
import { shorten } from '../util/text.js';

const SGR = /\u001b\[[0-9;]*m/g;

export function displayWidth(text: string): number {
  return text.replace(SGR, '').length;
}

export interface WrapOptions {
  /** Spaces before the first line. */
  indent?: number;
  /** Spaces before further lines (default: `indent`). */
  hanging?: number;
  measure?: (text: string) => number;
}

/** `text` wrapped to `width` columns, each input line a paragraph; at least 20 columns (below that a terminal breaks words anyway). */
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

/** Wrapped for a terminal (`tty`); a pipe or a file gets each line whole. */
export function fitLines(text: string, tty: boolean, width: number, options: WrapOptions = {}): string {
  return tty ? wrap(text, width, options) : text;
}

/** A shell command wrapped for an example: breaks at spaces outside quotes, each line ending in ` \`, so it still pastes. */
export function wrapCommand(given: string, width: number, indent: number): string {
  const command = given.replace(/ {2,}# /, ' # ');
  // A trailing comment too long for the line goes above the command: it cannot be continued with ` \`.
  const comment = / # [^"']*$/.exec(command);
  if (comment && indent + command.length > Math.max(width, 20)) {
    const lead = command.startsWith('$ ') ? 2 : 0;
    return `${wrap(`# ${comment[0].slice(3)}`, width, { indent: indent + lead, hanging: indent + lead + 2 })}\n${wrapCommand(command.slice(0, comment.index), width, indent)}`;
  }
  // Words, a quoted part with its spaces counting as one.
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

export interface StderrShape {
  stderrIsTTY: boolean;
  columns: number;
}

/** A message for stderr as every one is shown: wrapped on a terminal, whole in a log or a pipe (one line for grep). */
export function noticeLines(text: string, io: StderrShape, options: WrapOptions = {}): string {
  return fitLines(text, io.stderrIsTTY, io.columns, options);
}

/** A line redrawn in place: cut to one column less than the terminal, as a wrap would leave the redraw on the wrong row. */
export function progressText(text: string, columns: number): string {
  return shorten(text, Math.max(columns - 1, 10));
}
