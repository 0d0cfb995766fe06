/**
 * The answer of `exercises __complete` as each script reads it: a first line saying what to complete
 * (`words`, or `files`/`dirs` with prefixes), then a candidate per line: bash's ready to insert, zsh's
 * `value:description`, fish's `value<TAB>description`.
 */
import type { Completion } from './engine.js';
import { isCompletable } from './id-index.js';
import { dequote } from './parse-line.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** What readline puts in place of the text it replaces, given the quote opened. */
export function bashQuote(text: string, openQuote: '' | '"' | "'"): string {
  if (openQuote === "'") return text.replace(/'/g, `'\\''`);
  if (openQuote === '"') return text.replace(/[\\"$`]/g, '\\$&');
  // Only ASCII characters are special to the shell.
  return text.replace(/[^\w\-.,:/@%+=\u0080-\uffff]/g, '\\$&').replace(/^~/, '\\$&');
}

export interface CurrentWord {
  raw: string;
  replacedFrom: number;
}

function bash(completion: Completion, word: CurrentWord): string[] {
  const { openQuote, openQuoteAt } = dequote(word.raw);
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

/** zsh: `value:description` (`\` and `:` escaped); fish: `value<TAB>description`. */
function zshOrFish(shell: 'zsh' | 'fish', completion: Completion): string[] {
  if (completion.directive !== 'words') return [`${completion.directive}\t${oneLine(completion.prefix)}\t${oneLine(completion.wordPrefix)}`];
  const value = (v: string): string => oneLine(shell === 'zsh' ? v.replace(/[\\:]/g, '\\$&') : v);
  return [
    'words',
    ...completion.candidates.map((c) => (c.description ? `${value(c.value)}${shell === 'zsh' ? ':' : '\t'}${oneLine(c.description)}` : value(c.value))),
  ];
}

/** The answer for `shell`; a candidate not printable is left out here, the one way out to every shell. */
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
