/**
 * Writes a list of exercise summaries in the format in force, a page at a time: json keeps
 * the API's list shape and streams, jsonl is one object per line, csv/tsv a header and one
 * row per item, and a table (terminal only) ends with a one-line footer.
 */
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { chalkFor, outputFormat } from '../context.js';
import type { ExerciseSummary, Pagination } from '../catalogue/types.js';
import { type Column, LIST_COLUMNS, LIST_TABLE_COLUMNS } from './columns.js';
import { delimitedLine } from './delimited.js';
import { renderTable } from './table.js';
import { write } from './write.js';

export interface ListFooter {
  /** Command line for the next page, when there is one. */
  nextCommand?: string;
  /** The whole list was fetched (--all): say so rather than offering a next page. */
  complete?: boolean;
}

export interface ListWriter {
  /** A page of items, in one write (a page of `ids --all` is one write, not 25). */
  addPage(items: readonly ExerciseSummary[]): Promise<void> | void;
  /** `pagination` is written in json (the API's shape); the footer is for the table. */
  finish(pagination: Pagination, footer?: ListFooter): Promise<void>;
}

type OutCtx = Pick<Context, 'io' | 'env' | 'globals'>;

/** A writer for the streamed formats: `text(item)` is called once per item, in order. */
function streamed(out: Writable, text: (item: ExerciseSummary) => string, finish: ListWriter['finish']): ListWriter {
  return {
    addPage(items) {
      let chunk = '';
      for (const item of items) chunk += text(item);
      if (chunk !== '') return write(out, chunk);
    },
    finish,
  };
}

export function createListWriter(ctx: OutCtx, columns: ReadonlyArray<Column<ExerciseSummary>> = LIST_COLUMNS): ListWriter {
  const out = ctx.io.stdout;
  const format = outputFormat(ctx);
  let count = 0;

  switch (format) {
    case 'json':
      return streamed(
        out,
        (item) => (count++ === 0 ? '{"exercises":[\n' : ',\n') + JSON.stringify(item),
        async (pagination) => {
          await write(out, `${count === 0 ? '{"exercises":[' : '\n'}],"pagination":${JSON.stringify(pagination)}}\n`);
        },
      );
    case 'jsonl':
      return streamed(out, (item) => `${JSON.stringify(item)}\n`, async () => {});
    case 'csv':
    case 'tsv': {
      const header = (): string => delimitedLine(format, columns.map((c) => c.key));
      return streamed(
        out,
        (item) => {
          const line = delimitedLine(format, columns.map((c) => c.value(item)));
          return count++ === 0 ? header() + line : line;
        },
        async () => {
          if (count === 0) await write(out, header());
        },
      );
    }
    case 'table': {
      // A table needs every row to size its columns; it is for people, so pages are small.
      const items: ExerciseSummary[] = [];
      return {
        addPage(page) {
          items.push(...page);
        },
        async finish(pagination, footer = {}) {
          const chalk = await chalkFor(ctx);
          if (items.length === 0) {
            if (!ctx.globals.quiet) await write(ctx.io.stderr, 'No exercises match.\n');
            return;
          }
          await write(out, await renderTable(items, LIST_TABLE_COLUMNS, { width: ctx.io.columns, chalk }));
          if (ctx.globals.quiet) return;
          const total = typeof pagination.total === 'number' ? pagination.total : undefined;
          let line = `${items.length}${total !== undefined && !footer.complete ? ` of ${total}` : ''} ${items.length === 1 ? 'exercise' : 'exercises'}`;
          if (footer.nextCommand && !footer.complete) line += ` · next page: ${footer.nextCommand}`;
          await write(out, `${chalk ? chalk.dim(line) : line}\n`);
        },
      };
    }
  }
}
