/**
 * The answer of `exercises __complete` as each shell script reads it (scripts.ts): a first
 * line saying what to complete, then one candidate per line.
 *
 *   words                          then candidates
 *   files<TAB>prefix<TAB>wordPrefix  (or dirs): the shell lists the paths itself
 *
 * bash gets candidates ready to insert (quoted, and only the part readline replaces);
 * zsh gets `value:description` for _describe; fish gets `value<TAB>description`.
 */
import type { Completion } from './engine.js';
import { isCompletable } from './id-index.js';
import { dequote } from './parse-line.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** A value or description on one line of the answer. */
function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** What readline will put in place of the text it replaces, given the quote the user opened. */
export function bashQuote(text: string, openQuote: '' | '"' | "'"): string {
  if (openQuote === "'") return text.replace(/'/g, `'\\''`);
  if (openQuote === '"') return text.replace(/[\\"$`]/g, '\\$&');
  // Only ASCII characters are special to the shell; letters of other scripts stay as they are.
  return text.replace(/[^\w\-.,:/@%+=\u0080-\uffff]/g, '\\$&').replace(/^~/, '\\$&');
}

/** The word being completed, raw as typed, and where the text readline replaces starts in it. */
export interface CurrentWord {
  raw: string;
  replacedFrom: number;
}

function bash(completion: Completion, word: CurrentWord): string[] {
  const { openQuote, openQuoteAt } = dequote(word.raw);
  // Inside a quote readline replaces only the text after it.
  const from = openQuote !== '' && openQuoteAt >= word.replacedFrom ? openQuoteAt + 1 : word.replacedFrom;
  const kept = dequote(word.raw.slice(0, from)).text; // stays on the line, so not part of a candidate
  if (completion.directive !== 'words') {
    const full = completion.wordPrefix + completion.prefix;
    return [`${completion.directive}\t${full.startsWith(kept) ? full.slice(kept.length) : completion.prefix}`];
  }
  const lines = ['words'];
  for (const c of completion.candidates) {
    if (c.value.startsWith(kept)) lines.push(oneLine(bashQuote(c.value.slice(kept.length), openQuote)));
  }
  return lines;
}

/** zsh: `value:description` for _describe (`\` and `:` escaped in the value); fish: `value<TAB>description`. */
function zshOrFish(shell: 'zsh' | 'fish', completion: Completion): string[] {
  if (completion.directive !== 'words') return [`${completion.directive}\t${oneLine(completion.prefix)}\t${oneLine(completion.wordPrefix)}`];
  const value = (v: string): string => oneLine(shell === 'zsh' ? v.replace(/[\\:]/g, '\\$&') : v);
  return [
    'words',
    ...completion.candidates.map((c) => (c.description ? `${value(c.value)}${shell === 'zsh' ? ':' : '\t'}${oneLine(c.description)}` : value(c.value))),
  ];
}

/**
 * The answer for `shell`. Whatever the sources gave, a candidate whose value or description is
 * not printable (id-index.ts isCompletable) is left out here, the one way out to every shell.
 */
export function formatCompletion(shell: Shell, given: Completion, word: CurrentWord): string {
  const completion: Completion =
    given.directive === 'words'
      ? { ...given, candidates: given.candidates.filter((c) => isCompletable(c.value) && (c.description === undefined || isCompletable(c.description))) }
      : {
          ...given,
          prefix: given.prefix.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''),
          wordPrefix: given.wordPrefix.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''),
        };
  const lines = shell === 'bash' ? bash(completion, word) : zshOrFish(shell, completion);
  return `${lines.join('\n')}\n`;
}
