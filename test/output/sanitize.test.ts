/** The one sanitiser (src/util/text.ts), its users, the shell quoting of the footer and the format-flag check. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { safeComponent } from '../../src/media/safe-path.js';
import { printable } from '../../src/media/jobs.js';
import { assertGlobalFlags } from '../../src/commands/shared/flags.js';
import { footerLine, nextPageGroups, shellQuote } from '../../src/output/next-page.js';

import { cleanText, escapeUnsafe, hasUnsafe, oneLine } from '../../src/util/text.js';

/** The next-page command on one line. */
const nextPageCommand = (...args: Parameters<typeof nextPageGroups>): string =>
  nextPageGroups(...args)
    .flat()
    .join(' ');

/** Anything a terminal would act on, or that reorders or hides text. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff]/;

describe('the sanitiser', () => {
  const cases: Array<[string, string, string]> = [
    ['CSI (clear screen, colour)', 'a\u001b[2J\u001b[1;31mb', 'ab'],
    ['OSC ended by BEL (retitle)', 'a\u001b]0;owned\u0007b', 'ab'],
    ['OSC ended by ST (hyperlink)', 'a\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\b', 'alinkb'],
    ['an unterminated OSC swallows the rest, as a terminal would', 'a\u001b]0;owned', 'a'],
    ['8-bit CSI and OSC', 'a\u009b2Jb\u009d0;x\u009cc', 'abc'],
    ['DCS, APC and a lone ESC', 'a\u001bP1$r\u001b\\b\u001b_x\u001b\\c\u001bcd', 'abcd'],
    ['C0, C1 and DEL', 'a\u0001\u0085\u007fb', 'ab'],
    ['bidi overrides, isolates and marks', 'a\u202eb\u2066c\u2069d\u200fe\u061cf', 'abcdef'],
    ['invisible format characters', 'a\u200bb\u2060c\ufeffd\u00ade', 'abcde'],
  ];
  for (const [what, input, expected] of cases) {
    it(`removes ${what}`, () => {
      expect(oneLine(input)).toBe(expected);
      expect(cleanText(input)).toBe(expected);
      expect(hasUnsafe(input)).toBe(true);
    });
  }

  it('keeps what text needs: letters of every script, combining marks, emoji with joiners and selectors', () => {
    const text = 'Café e\u0301 卧推 Жим 👨\u200d👩\u200d👧 ❤\ufe0f نون\u200cی';
    expect(cleanText(text)).toBe(text);
    expect(oneLine(text)).toBe(text);
    expect(hasUnsafe(text)).toBe(false);
  });

  it('cleanText keeps tabs and newlines; oneLine makes them spaces', () => {
    expect(cleanText('a\tb\nc\r\n')).toBe('a\tb\nc\n');
    expect(oneLine('a\tb\nc\r\u2028d')).toBe('a b c  d');
  });

  it('escapeUnsafe shows every unsafe character instead of dropping it', () => {
    expect(escapeUnsafe('id\u001b[2J\u202e\n')).toBe('id\\x1b[2J\\u202e\\x0a');
    expect(escapeUnsafe('plain é')).toBe('plain é');
  });

  it('every user shares it: media messages, file names, plain stripping', () => {
    expect(printable('x\u202e\u001b]0;t\u0007')).toBe('x\\u202e\\x1b]0;t\\x07');
    const name = safeComponent('evil\u202egnp.exe');
    expect(name).not.toMatch(ACTIVE);
    expect(name).toMatch(/^evil_gnp\.exe-[0-9a-f]{8}$/); // changed, so a hash keeps it distinct
    expect(safeComponent('zero\u200bwidth')).not.toBe(safeComponent('zerowidth'));
    expect(cleanText('a\u202eb\u0085c\td')).toBe('abc\td');
  });
});

describe('shell quoting of the next-page command', () => {
  it('leaves plain words bare and single-quotes the rest, POSIX style', () => {
    expect(shellQuote('c2')).toBe('c2');
    expect(shellQuote('--name=bench')).toBe('--name=bench');
    expect(shellQuote("farmer's walk")).toBe(`'farmer'\\''s walk'`);
    expect(shellQuote('=cmd')).toBe(`'=cmd'`);
    expect(shellQuote('')).toBe(`''`);
    expect(shellQuote('a*b $HOME')).toBe(`'a*b $HOME'`);
    expect(shellQuote('Bankdrücken')).toBe(`'Bankdrücken'`);
  });

  it("writes control, bidi and invisible characters as visible $'…' escapes", () => {
    const quoted = shellQuote("c\u001b]0;x\u0007'\\\u202e\u0085");
    expect(quoted).toBe(`$'c\\x1b]0;x\\x07\\'\\\\\\u202e\\u0085'`);
    expect(quoted).not.toMatch(ACTIVE);
  });

  const bash = spawnSync('bash', ['-c', 'exit 0']).status === 0;
  it.skipIf(!bash)('pastes back to the very same arguments in bash', () => {
    const args = ['ids', "it's", 'a b', '\u001b[2J', 'x\u202ey', 'é卧\u0085', '$HOME', '*'];
    const command = args.map(shellQuote).join(' ');
    const r = spawnSync('bash', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' });
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(args);
  });

  it('drops the paging flags and the key, keeps the rest, and puts the cursor before --', () => {
    expect(nextPageCommand(['--api-key', 'k', 'query', '--max=5', '--name', 'a b', '--all', '--before', 'x'], 'c9', 'after', { max: 5 })).toBe(
      `exercises query --name 'a b' --max 5 --after c9`,
    );
    expect(nextPageCommand(['ids', '--', 'x'], 'c', 'before')).toBe('exercises ids --before c -- x');
  });

  it('footer wording: ranges, totals, plurals', () => {
    expect(
      footerLine(10, {
        start: 11,
        total: 67,
        nextGroups: [
          ['exercises', 'ids'],
          ['--after', 'c'],
        ],
      }),
    ).toBe('11–20 of 67 exercises · next page: exercises ids --after c');
    expect(footerLine(1, { start: 1, total: 1 })).toBe('1 exercise');
    expect(footerLine(1, { start: 5, total: 9 })).toBe('exercise 5 of 9');
    expect(footerLine(3, { total: 9, direction: 'before' })).toBe('3 earlier of 9 exercises');
    expect(footerLine(2, {})).toBe('2 exercises');
    expect(footerLine(2, { start: 4 })).toBe('4–5 exercises');
  });
});

describe('conflicting format flags', () => {
  it('refuses --json with a non-JSON --format', () => {
    for (const format of ['csv', 'tsv', 'table'] as const) {
      expect(() => assertGlobalFlags({ sandbox: false, json: true, format })).toThrow(UsageError);
      expect(() => assertGlobalFlags({ sandbox: false, json: 'id,name', format })).toThrow(/--json and --format/);
    }
  });
  it('takes --json alone, --format alone, and --json with json or jsonl', () => {
    expect(() => assertGlobalFlags({ sandbox: false, json: true })).not.toThrow();
    expect(() => assertGlobalFlags({ sandbox: false, format: 'csv' })).not.toThrow();
    expect(() => assertGlobalFlags({ sandbox: false, json: 'id', format: 'jsonl' })).not.toThrow();
    expect(() => assertGlobalFlags({ sandbox: false, json: true, format: 'json' })).not.toThrow();
  });
});
