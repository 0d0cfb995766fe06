/**
 * What the docs tests read out of the Markdown files: relative links, heading anchors as GitHub
 * makes them, and the `exercises …` command lines quoted in code (fenced blocks and inline code
 * outside headings), split into the words a shell would pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

/** README.md, CHANGELOG.md and every page under docs/ (paths relative to the root). */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'CHANGELOG.md', ...docs];
}

export function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

interface Parts {
  /** Lines of fenced code blocks, with their 1-based line numbers. */
  code: Array<{ line: number; text: string }>;
  /** Lines of prose (tables included), with their line numbers; headings apart. */
  prose: Array<{ line: number; text: string }>;
  headings: string[];
}

function split(markdown: string): Parts {
  const parts: Parts = { code: [], prose: [], headings: [] };
  let fence = false;
  markdown.split('\n').forEach((text, i) => {
    const line = i + 1;
    if (/^\s*```/.test(text)) fence = !fence;
    else if (fence) parts.code.push({ line, text });
    else if (/^#{1,6} /.test(text)) parts.headings.push(text.replace(/^#+ /, ''));
    else parts.prose.push({ line, text });
  });
  return parts;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of split(markdown).headings) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** Link targets `[text](target)` in prose, without http(s)/mailto ones. */
export function relativeLinks(markdown: string): Array<{ line: number; target: string }> {
  const links: Array<{ line: number; target: string }> = [];
  for (const { line, text } of split(markdown).prose) {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    for (const m of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (!/^(https?:|mailto:)/.test(target)) links.push({ line, target });
    }
  }
  return links;
}

/**
 * The shell words of a command line, split at pipes, `&&`, `||`, `;` and redirections (the
 * redirection's file is dropped); `$(…)` and `<(…)` are scanned as command lines of their own
 * (added to `nested`) and stand as one word. Quotes are honoured; a `#` starting a word begins a comment.
 */
export function shellSegments(source: string): string[][] {
  const segments: string[][] = [];
  const scan = (text: string): void => {
    let words: string[] = [];
    let word: string | undefined;
    let dropNext = false;
    const endWord = (): void => {
      if (word === undefined) return;
      if (dropNext) dropNext = false;
      else words.push(word);
      word = undefined;
    };
    const endSegment = (): void => {
      endWord();
      if (words.length) segments.push(words);
      words = [];
    };
    /** Index of the `)` closing the `(` at `open`. */
    const closing = (open: number): number => {
      let depth = 0;
      for (let j = open; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) return j;
      }
      return text.length;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if ((c === '$' || c === '<') && text[i + 1] === '(') {
        const end = closing(i + 1);
        scan(text.slice(i + 2, end));
        word = `${word ?? ''}SUBST`;
        i = end;
      } else if (c === "'") {
        const end = text.indexOf("'", i + 1);
        word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
        i = end < 0 ? text.length : end;
      } else if (c === '"') {
        let value = '';
        let j = i + 1;
        for (; j < text.length && text[j] !== '"'; j++) {
          if (text[j] === '\\' && j + 1 < text.length) value += text[++j];
          else if (text[j] === '$' && text[j + 1] === '(') {
            const end = closing(j + 1);
            scan(text.slice(j + 2, end));
            value += 'SUBST';
            j = end;
          } else value += text[j];
        }
        word = (word ?? '') + value;
        i = j;
      } else if (c === '\\' && i + 1 < text.length) {
        word = (word ?? '') + text[++i];
      } else if (/\s/.test(c)) {
        endWord();
      } else if (c === '#' && word === undefined) {
        break;
      } else if (c === '|' || c === ';' || c === '&') {
        endSegment();
        if (text[i + 1] === c) i++;
      } else if (c === '>' || c === '<') {
        // `2>` and `2>&1`: the descriptor number is not a word of the command
        if (word !== undefined && /^\d$/.test(word)) word = undefined;
        endWord();
        if (text[i + 1] === '>' || text[i + 1] === '&') i++;
        if (text[i] === '&') {
          while (i + 1 < text.length && /\d/.test(text[i + 1]!)) i++;
        } else dropNext = true;
      } else {
        word = (word ?? '') + c;
      }
    }
    endSegment();
  };
  scan(source);
  return segments;
}

/** A placeholder such as `<cursor>` or `[name...]`, or an ellipsis: a synopsis, not a command to run. */
const PLACEHOLDER = /<[a-z][\w:-]*(\.\.\.)?>|\[[a-z][\w.|-]*\]|…|\.\.\.\]/i;

/**
 * Every `exercises …` command line quoted in code: its arguments after `exercises` (an
 * environment assignment or `npx` before it is dropped), with where it was found.
 */
export function quotedCommands(file: string, markdown: string): Array<{ where: string; args: string[] }> {
  const { code, prose } = split(markdown);
  const sources: Array<{ line: number; text: string }> = [];
  // Fenced code: lines ending in `\` continue on the next.
  for (let i = 0; i < code.length; i++) {
    let { text } = code[i]!;
    const { line } = code[i]!;
    while (text.endsWith('\\') && i + 1 < code.length) text = text.slice(0, -1) + code[++i]!.text;
    sources.push({ line, text });
  }
  for (const { line, text } of prose) {
    // Inline code naming a command alone (`exercises mirror`) names it; it is not a command line.
    for (const m of text.matchAll(/`([^`]+)`/g)) if (/\bexercises\b/.test(m[1]!) && !/^exercises [\w-]+$/.test(m[1]!)) sources.push({ line, text: m[1]! });
  }
  const found: Array<{ where: string; args: string[] }> = [];
  for (const { line, text } of sources) {
    if (PLACEHOLDER.test(text)) continue;
    for (const words of shellSegments(text)) {
      let start = 0;
      while (start < words.length && (/^[A-Z_][A-Z0-9_]*=/.test(words[start]!) || words[start] === 'npx')) start++;
      if (words[start] !== 'exercises') continue;
      found.push({ where: `${file}:${line}: ${text.trim()}`, args: words.slice(start + 1) });
    }
  }
  return found;
}
