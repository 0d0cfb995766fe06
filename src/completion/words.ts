/**
 * The words of the command line as the shells hand them over: still quoted as typed
 * (bash's COMP_WORDS, zsh's $words) and, in bash, split at `=` and `:` (COMP_WORDBREAKS).
 */

export interface Dequoted {
  /** The word as the command will receive it. */
  text: string;
  /** The quote still open at the end of the word, if any (`"Barbell B`). */
  openQuote: '' | '"' | "'";
  /** Where that open quote stands in the raw word. */
  openQuoteAt: number;
}

/** Removes shell quoting: backslashes, '…' and "…" (in which only \ " $ ` and newline are escaped). */
export function dequote(raw: string): Dequoted {
  let text = '';
  let quote: '' | '"' | "'" = '';
  let quoteAt = -1;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      else text += c;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      else if (c === '\\' && i + 1 < raw.length && '\\"$`\n'.includes(raw[i + 1]!)) text += raw[++i];
      else text += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      quoteAt = i;
    } else if (c === '\\') {
      if (i + 1 < raw.length) text += raw[++i];
    } else text += c;
  }
  return { text, openQuote: quote, openQuoteAt: quote === '' ? -1 : quoteAt };
}

/** A word made only of bash's word-break characters that matter here (`--muscle`, `=`, `chest`). */
function isBreakPiece(word: string): boolean {
  return /^[=:]+$/.test(word);
}

export interface ReassembledLine {
  /** The words up to the one being completed, each whole again. */
  words: string[];
  /** Index of the word being completed in `words`. */
  cword: number;
  /**
   * The raw text of the current word before the piece the shell will replace: bash's
   * readline replaces only the text after the last word-break character (`--muscle=` in
   * `--muscle=ch`).
   */
  replacedFrom: number;
}

/**
 * Glues bash's COMP_WORDS back together around `=` and `:` (`--base-url`, `http`, `:`,
 * `//127.0.0.1`, …) and drops the words after the one being completed. Other shells keep
 * whole words, so nothing is glued for them.
 */
export function reassemble(pieces: readonly string[], cword: number, splitAtBreaks: boolean): ReassembledLine {
  const upTo = pieces.slice(0, Math.max(0, Math.min(cword, pieces.length - 1)) + 1);
  while (upTo.length <= cword) upTo.push('');
  if (!splitAtBreaks) return { words: upTo, cword: upTo.length - 1, replacedFrom: 0 };
  const words: string[] = [];
  let glueNext = false;
  let replacedFrom = 0;
  for (const [i, piece] of upTo.entries()) {
    const isCurrent = i === upTo.length - 1;
    if (words.length > 0 && (isBreakPiece(piece) || glueNext)) {
      const before = words[words.length - 1]!;
      words[words.length - 1] = before + piece;
      if (isCurrent) replacedFrom = isBreakPiece(piece) ? before.length + piece.length : before.length;
      glueNext = isBreakPiece(piece);
    } else {
      words.push(piece);
      if (isCurrent) replacedFrom = 0;
      glueNext = false;
    }
  }
  return { words, cword: words.length - 1, replacedFrom };
}
