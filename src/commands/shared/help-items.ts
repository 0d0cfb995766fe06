/** The help's lists: terms in a column and their descriptions wrapped beside them, flags as such items, titled sections. */
import type { Help, Option } from 'commander';
import { displayWidth, wrap } from '../../output/wrap.js';

/** The description as a sentence: capital first letter, full stop at the end. */
export function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return t;
  return `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

export interface Item {
  term: string;
  description: string;
}

/**
 * Terms in a column, descriptions wrapped beside them. A term longer than the column
 * (at most two fifths of the width) takes its own line, its description below it.
 */
export function itemList(items: readonly Item[], width: number, separator = '  '): string[] {
  if (items.length === 0) return [];
  const longest = Math.max(...items.map((i) => displayWidth(i.term)));
  const column = Math.min(longest, Math.max(12, Math.floor(width * 0.4)));
  const descIndent = 2 + column + separator.length;
  const lines: string[] = [];
  for (const { term, description } of items) {
    if (description === '') {
      lines.push(`  ${term}`);
      continue;
    }
    if (displayWidth(term) > column) {
      lines.push(`  ${term}`);
      lines.push(wrap(description, width, { indent: descIndent }));
    } else {
      const lead = `  ${term}${' '.repeat(column - displayWidth(term))}${separator}`;
      const wrapped = wrap(description, width - descIndent, { indent: 0 });
      lines.push(
        wrapped
          .split('\n')
          .map((l, i) => (i === 0 ? lead + l : ' '.repeat(descIndent) + l))
          .join('\n'),
      );
    }
  }
  return lines;
}

/** A titled section, or nothing when it has no lines. */
export function section(title: string, body: readonly string[]): string[] {
  return body.length === 0 ? [] : [title, ...body, ''];
}

export function flagItem(helper: Help, option: Option): Item {
  // Commander's terms say `[options]`; gh's say flags. No `(default: …)` noise for booleans (commander adds none).
  return { term: helper.optionTerm(option), description: sentence(helper.optionDescription(option)) };
}
