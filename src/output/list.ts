/** Writes a list of summaries in the format in force, a page at a time: json streams the API's shape, jsonl/csv/tsv a line per item, a table a footer. */
import type { Writable } from 'node:stream';
import { type Context, colorEnabled, outputFormat } from '../context.js';
import { chalkFor, colorJson } from './colour.js';
import type { ExerciseSummary, Pagination } from '../catalogue/types.js';
import { LIST_COLUMNS, LIST_TABLE_COLUMNS, itemLines, requestedFields, selectFields } from './fields.js';
import { jsonText } from './json.js';
import { type ListFooter, footerLine } from './next-page.js';
import { wrap } from './wrap.js';
import { write } from './streams.js';
import { renderTable } from './table.js';
import { startPager } from './pager.js';

export type { ListFooter } from './next-page.js';

export interface ListWriter {
  /** A page of items, in one write. */
  addPage(items: readonly ExerciseSummary[]): Promise<void> | void;
  /** `pagination` is written in json; the footer is for the table. */
  finish(pagination: Pagination, footer?: ListFooter): Promise<void>;
}

export interface ListWriterOptions {
  pager?: boolean;
  /** What to try instead, said after "No exercises match." on a terminal. */
  emptyHint?: string;
}

type OutCtx = Pick<Context, 'io' | 'env' | 'globals'>;

/** A writer for the streamed formats: `text(item)` once per item, `end` closes the output. */
function streamed(out: Writable, text: (item: ExerciseSummary) => string, end: (pagination: Pagination) => string): ListWriter {
  return {
    addPage(items) {
      let chunk = '';
      for (const item of items) chunk += text(item);
      if (chunk !== '') return write(out, chunk);
    },
    async finish(pagination) {
      const last = end(pagination);
      if (last !== '') await write(out, last);
    },
  };
}

/** The writer for the format in force; `--json <fields>` is checked first, so a bad field costs no request. */
export function createListWriter(ctx: OutCtx, options: ListWriterOptions = {}): ListWriter {
  const out = ctx.io.stdout;
  const format = outputFormat(ctx);
  const fields = requestedFields(ctx.globals, 'summary');
  if (format === 'table') return tableWriter(ctx, options.pager ?? false, options.emptyHint);
  if (format !== 'json') {
    const lines = itemLines(format, LIST_COLUMNS, fields);
    return streamed(out, lines.line, lines.end);
  }
  const paint = colorEnabled(ctx) ? colorJson : (text: string) => text;
  let count = 0;
  return streamed(
    out,
    (item) => (count++ === 0 ? '{"exercises":[\n' : ',\n') + paint(jsonText(selectFields(item, fields))),
    (pagination) => `${count === 0 ? '{"exercises":[' : '\n'}],"pagination":${paint(jsonText(pagination))}}\n`,
  );
}

/** A table needs every row to size its columns: rows are kept until finish. */
function tableWriter(ctx: OutCtx, pager: boolean, emptyHint?: string): ListWriter {
  const items: ExerciseSummary[] = [];
  return {
    addPage(page) {
      for (const item of page) items.push(item); // not push(...page): no argument spread of unbounded size
    },
    async finish(pagination, footer = {}) {
      if (items.length === 0) {
        if (!ctx.globals.quiet) await write(ctx.io.stderr, `${wrap(`No exercises match.${emptyHint ? ` ${emptyHint}` : ''}`, ctx.io.columns)}\n`);
        return;
      }
      const chalk = await chalkFor(ctx);
      let text = await renderTable(items, LIST_TABLE_COLUMNS, { width: ctx.io.columns, chalk });
      if (!ctx.globals.quiet) {
        const total = footer.total ?? (typeof pagination.total === 'number' ? pagination.total : undefined);
        const line = footerLine(items.length, { ...footer, ...(total !== undefined ? { total } : {}) }, ctx.io.columns);
        text += `${chalk ? chalk.dim(line) : line}\n`;
      }
      await writePaged(ctx, text, pager);
    },
  };
}

export function terminalRows(stream: Writable): number | undefined {
  const rows = (stream as { rows?: unknown }).rows;
  return typeof rows === 'number' && rows > 0 ? rows : undefined;
}

/** Text for a person: through the pager when `pager` and longer than the terminal (or its height unknown), else directly. */
export async function writePaged(ctx: Pick<Context, 'io' | 'env'>, text: string, pager: boolean): Promise<void> {
  const rows = terminalRows(ctx.io.stdout);
  if (!pager || !ctx.io.stdoutIsTTY || (rows !== undefined && lineCount(text) < rows)) {
    await write(ctx.io.stdout, text);
    return;
  }
  const paging = await startPager(ctx, true);
  await write(paging.stream, text);
  await paging.done();
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
