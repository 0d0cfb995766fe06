/** The list and record writers in-process with fake streams: pipes, csv, --json fields, footers, hostile data. */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { ExerciseSummary, ListResponse } from '../../src/catalogue/types.js';
import { outputList } from '../../src/commands/shared/list-output.js';
import { MalformedResponseError, UsageError } from '../../src/errors.js';
import { RECORD_FIELDS, SUMMARY_FIELDS, parseJsonFields, selectFields } from '../../src/output/fields.js';
import { createListWriter } from '../../src/output/list.js';
import { commandLines, nextPageGroups } from '../../src/output/next-page.js';

import { createRecordWriter } from '../../src/output/record.js';
import { maxDepth, MAX_JSON_DEPTH } from '../../src/catalogue/validate.js';
import { parseCsv } from '../helpers/fixtures.js';
import { WIDTHS, terminalContext } from '../helpers/test-context.js';

/** The next-page command on one line. */
const nextPageCommand = (...args: Parameters<typeof nextPageGroups>): string =>
  nextPageGroups(...args)
    .flat()
    .join(' ');

const ITEMS: ExerciseSummary[] = [
  { id: 'Push_Up', name: 'Push Up', aliases: ['Press Up'], premiumImages: ['start', 'end'], premiumVideos: ['demo'] },
  { id: 'Plank', name: 'Plank', aliases: [] },
  { id: 'Evil', name: '=HYPERLINK("http://x")', aliases: ['+1', '-2', '@sum', '\tTab'] },
];

async function list(items: readonly ExerciseSummary[], options: Parameters<typeof terminalContext>[0]): Promise<string> {
  const { ctx, stdout } = terminalContext(options);
  const writer = createListWriter(ctx);
  await writer.addPage(items);
  await writer.finish({ total: items.length });
  return stdout.text();
}

describe('piped output', () => {
  it('is tsv without a header row: one line per exercise, the id first', async () => {
    const text = await list(ITEMS, { stdoutIsTTY: false });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(ITEMS.length); // `| wc -l` counts exercises
    expect(lines.map((l) => l.split('\t')[0])).toEqual(ITEMS.map((i) => i.id)); // `| cut -f1 | exercises show -`
  });

  it('writes nothing at all for an empty tsv list', async () => {
    expect(await list([], { stdoutIsTTY: false })).toBe('');
  });

  it('csv keeps its header and neutralises cells a spreadsheet would run as formulas', async () => {
    const rows = parseCsv(await list(ITEMS, { globals: { format: 'csv' } }));
    expect(rows[0]).toEqual([...SUMMARY_FIELDS]);
    const evil = rows.find((r) => r[0] === 'Evil')!;
    expect(evil[1]).toBe(`'=HYPERLINK("http://x")`);
    expect(evil[3]).toBe(`'+1; -2; @sum; \tTab`);
    const push = rows.find((r) => r[0] === 'Push_Up')!;
    expect(push[3]).toBe('Press Up');
    // Every cell that starts with = + - @ tab or CR is quoted with a leading '.
    for (const row of rows.slice(1)) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('--json fields', () => {
  it('keeps only the fields asked for, in json and jsonl, for lists', async () => {
    const json = JSON.parse(await list(ITEMS, { globals: { json: 'id,premiumImages' } }));
    expect(json.exercises).toEqual([{ id: 'Push_Up', premiumImages: ['start', 'end'] }, { id: 'Plank' }, { id: 'Evil' }]);
    expect(json.pagination).toEqual({ total: 3 });
    const jsonl = (await list(ITEMS, { globals: { json: 'name', format: 'jsonl' } }))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(jsonl).toEqual(ITEMS.map((i) => ({ name: i.name })));
  });

  it('keeps only the fields asked for in records', async () => {
    const { ctx, stdout } = terminalContext({ stdoutIsTTY: false, globals: { json: 'name,instructions' } });
    const writer = createRecordWriter(ctx, false);
    await writer.add({ id: 'A', name: 'A', level: 'BEGINNER', instructions: ['one'] });
    await writer.finish();
    expect(JSON.parse(stdout.text())).toEqual({ name: 'A', instructions: ['one'] });
  });

  it('an unknown field is a usage error listing the valid ones, before anything is written', () => {
    const { ctx, stdout } = terminalContext({ globals: { json: 'id,nmae' } });
    let error: unknown;
    try {
      createListWriter(ctx);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('"nmae"');
    expect((error as UsageError).hint).toBe(`Valid fields: ${SUMMARY_FIELDS.join(', ')}.`);
    expect(stdout.text()).toBe('');
    // Record fields are valid for show, not for lists.
    expect(() => parseJsonFields('instructions', 'summary')).toThrow(UsageError);
    expect(parseJsonFields(' instructions , level,level', 'record')).toEqual(['instructions', 'level']);
    expect(RECORD_FIELDS).toContain('instructions');
    expect(() => parseJsonFields(',', 'record')).toThrow(UsageError);
  });

  it('selectFields keeps the order asked for and leaves missing fields out', () => {
    expect(selectFields({ id: 'a', name: 'b', extra: 1 }, ['name', 'id', 'aliases'])).toEqual({ name: 'b', id: 'a' });
    expect(Object.keys(selectFields({ id: 'a', name: 'b' }, ['name', 'id']))).toEqual(['name', 'id']);
    expect(selectFields({ id: 'a', name: 'b' }, undefined)).toEqual({ id: 'a', name: 'b' });
  });
});

/** An item whose unknown field nests `depth` arrays deep, built without recursion. */
function deepItem(depth: number): ExerciseSummary {
  let nested: unknown = [];
  for (let i = 1; i < depth; i++) nested = [nested];
  return { id: 'Deep', name: 'Deep', nested };
}

describe('the show card', () => {
  for (const width of WIDTHS) {
    it(`at ${width} columns wraps wide text by terminal cells`, async () => {
      const { ctx, stdout } = terminalContext({ columns: width });
      const writer = createRecordWriter(ctx, false);
      const step = Array.from({ length: 40 }, (_, i) => (i % 2 ? '杠铃卧推' : 'press')).join(' ');
      await writer.add({ id: 'Wide', name: '卧推', instructions: [step, 'Ein Schritt mit Umlauten: Bankdrücken'] });
      await writer.finish();
      const lines = stdout.text().trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(Math.max(40, width));
    });
  }

  it('tsv of records has no header; csv has one', async () => {
    for (const [format, lines] of [
      ['tsv', 1],
      ['csv', 2],
    ] as const) {
      const { ctx, stdout } = terminalContext({ globals: { format } });
      const writer = createRecordWriter(ctx, true);
      await writer.add({ id: 'A', name: 'A' });
      await writer.finish();
      expect(stdout.text().trimEnd().split(/\r?\n/)).toHaveLength(lines);
    }
  });
});

/**
 * What the tool must do with an answer nested deeper than JSON.stringify can walk on some engines
 * (Node 20–24 overflow the stack at a few thousand levels, Node 26 does not): print it whole, or
 * refuse it as a malformed answer; never crash with a RangeError.
 */
async function printedWholeOrRefused(print: () => Promise<string>, depth: number): Promise<void> {
  let text: string;
  try {
    text = await print();
  } catch (err) {
    expect(err).toBeInstanceOf(MalformedResponseError);
    return;
  }
  expect(text).toContain(`"nested":${'['.repeat(depth)}${']'.repeat(depth)}`);
}

describe('stack safety', () => {
  it('an answer nested 5,000 or 200,000 levels deep is printed whole or refused as malformed, in json and jsonl', async () => {
    for (const depth of [5000, 200_000]) {
      for (const format of ['json', 'jsonl'] as const) {
        await printedWholeOrRefused(() => list([deepItem(depth)], { globals: { format } }), depth);
      }
      await printedWholeOrRefused(async () => {
        const { ctx, stdout } = terminalContext({ globals: { format: 'jsonl' } });
        const writer = createRecordWriter(ctx, true);
        await writer.add(deepItem(depth));
        await writer.finish();
        return stdout.text();
      }, depth);
    }
  });

  it('a moderately nested unknown field still prints', async () => {
    const out = JSON.parse(await list([deepItem(50)], { globals: { format: 'json' } }));
    expect(out.exercises[0].id).toBe('Deep');
  });

  it('maxDepth measures without recursion and stops past the limit', () => {
    expect(maxDepth('x', 3)).toBe(0);
    expect(maxDepth({ a: [1, { b: [] }] }, 10)).toBe(4);
    expect(maxDepth(deepItem(1_000_000), MAX_JSON_DEPTH)).toBe(MAX_JSON_DEPTH + 1);
    expect(maxDepth(JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`), 10_000)).toBe(5000);
  });

  it('a table page of 130,000 rows is collected without spreading arguments', async () => {
    const many: ExerciseSummary[] = Array.from({ length: 130_000 }, (_, i) => ({ id: `Id_${i}`, name: `N${i}` }));
    const { ctx, stdout } = terminalContext({ columns: 80 });
    const writer = createListWriter(ctx);
    await writer.addPage(many);
    await writer.finish({ total: many.length });
    expect(stdout.text().split('\n').length).toBe(130_003); // header, rows, footer, final newline
  });
});

describe('terminal safety of list output', () => {
  const hostile: ExerciseSummary = {
    id: 'Hostile',
    name: 'A\u001b]0;pwned\u0007B\u001b[2JC\u009b31mD\u202eE\u2066F\u200bG',
    aliases: ['x\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\'],
  };
  for (const width of WIDTHS) {
    it(`at ${width} columns the table holds no escape, C1, bidi or invisible character`, async () => {
      const text = await list([hostile], { columns: width });
      expect(text).not.toMatch(/[\u001b\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200b]/);
      expect(text).toContain('ABCDEFG');
    });
  }
  it('json escapes C1 and bidi characters as \\u: the same data, inert on a terminal', async () => {
    const text = await list([hostile], { globals: { format: 'json' } });
    expect(text).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200b]/);
    expect(JSON.parse(text).exercises[0].name).toBe(hostile.name);
  });
});

describe('the footer through outputList', () => {
  const page = (exercises: ExerciseSummary[], pagination: ListResponse['pagination']): ListResponse => ({ exercises, pagination });
  const items = (from: number, n: number): ExerciseSummary[] => Array.from({ length: n }, (_, i) => ({ id: `E${from + i}`, name: `E${from + i}` }));

  async function footer(argv: string[], paging: Parameters<typeof outputList>[2], pages: ListResponse[], columns = 100): Promise<string> {
    const { ctx, stdout } = terminalContext({ argv, columns });
    let call = 0;
    await outputList(ctx, async () => pages[Math.min(call++, pages.length - 1)]!, paging);
    return stdout.text().trimEnd().split('\n').pop()!;
  }

  it('gives the range of the first page and a command to paste for the next', async () => {
    const line = await footer(['ids', '--limit', '10'], { limit: 10, follow: false }, [page(items(1, 10), { total: 67, next: 'c10' })]);
    expect(line).toBe('1–10 of 67 exercises · next page: exercises ids --limit 10 --after c10');
  });

  it('says "more of" when a cursor hides the position, and the range at the end of the list', async () => {
    const middle = await footer(['ids', '--after', 'c10'], { limit: 10, after: 'c10', follow: false }, [page(items(11, 10), { total: 67, next: 'c20' })]);
    expect(middle).toBe('10 more of 67 exercises · next page: exercises ids --after c20');
    const last = await footer(['ids', '--after', 'c60'], { limit: 10, after: 'c60', follow: false }, [page(items(61, 7), { total: 67, next: null })]);
    expect(last).toBe('61–67 of 67 exercises');
  });

  it('gives the total and the next command with --max too, repeating --max', async () => {
    const line = await footer(['ids', '--max', '3'], { limit: 3, follow: true, max: 3 }, [page(items(1, 3), { total: 67, next: 'c3' })]);
    expect(line).toBe('1–3 of 67 exercises · next page: exercises ids --max 3 --after c3');
  });

  it('uses the right singular and says nothing more when all is shown', async () => {
    expect(await footer(['ids'], { limit: 10, follow: false }, [page(items(1, 1), { total: 1, next: null })])).toBe('1 exercise');
    expect(await footer(['ids', '--all'], { limit: 25, follow: true }, [page(items(1, 5), { total: 5, next: null })])).toBe('5 exercises');
  });

  it('quotes a hostile cursor visibly: no escape reaches the terminal, the command still pastes', async () => {
    const cursor = 'c\u001b]0;owned\u0007\u001b[2J';
    const line = await footer(['ids'], { limit: 1, follow: false }, [page(items(1, 1), { total: 9, next: cursor })]);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toBe(`exercise 1 of 9 · next page: exercises ids --after $'c\\x1b]0;owned\\x07\\x1b[2J'`);
  });

  it('puts a command too wide for the terminal under the sentence, broken only between arguments', async () => {
    const argv = ['query', '--muscle', 'CHEST', '--category', 'STRENGTH', '--level', 'BEGINNER', '--equipment', 'BARBELL'];
    const cursor = 'YzE6QmFyYmVsbF9CZW5jaF9QcmVzcw';
    const { ctx, stdout } = terminalContext({ argv, columns: 80 });
    await outputList(ctx, async () => page(items(1, 2), { total: 9, next: cursor }), { limit: 2, follow: false });
    const text = stdout.text().trimEnd();
    const footer = text.slice(text.indexOf('1–2 of 9 exercises')).split('\n');
    expect(footer).toEqual([
      '1–2 of 9 exercises · next page:',
      '  exercises query --muscle CHEST --category STRENGTH --level BEGINNER \\',
      `    --equipment BARBELL --after ${cursor}`,
    ]);
  });

  it('lays a command out at any width without parting a flag from its value; a cursor wider than the line stands alone', () => {
    const groups = nextPageGroups(['ids', '--limit', '5', '--no-cache'], 'c'.repeat(60));
    expect(groups).toEqual([['exercises', 'ids'], ['--limit', '5'], ['--no-cache'], ['--after', 'c'.repeat(60)]]);
    for (const width of [20, 40, 60, 80]) {
      const lines = commandLines(groups, width);
      expect(lines.join(' ').replace(/ \\ +/g, ' ').trim()).toBe(nextPageCommand(['ids', '--limit', '5', '--no-cache'], 'c'.repeat(60)));
      expect(lines.some((l) => l.includes(`--after ${'c'.repeat(60)}`))).toBe(true);
      expect(lines.some((l) => /--limit( \\)?$/.test(l))).toBe(false);
      for (const line of lines) if (!line.includes('--after')) expect(line.length).toBeLessThanOrEqual(width);
    }
    expect(
      commandLines(
        [
          ['exercises', 'ids'],
          ['--after', 'c'],
        ],
        80,
      ),
    ).toEqual(['  exercises ids --after c']);
  });

  it('goes quiet with --quiet', async () => {
    const { ctx, stdout } = terminalContext({ globals: { quiet: true } });
    await outputList(ctx, async () => page(items(1, 2), { total: 9, next: 'x' }), { limit: 2, follow: false });
    expect(stdout.text()).not.toContain('exercises');
  });
});
