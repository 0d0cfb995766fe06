/** Full records (`show`): a readable card on a terminal, else json or a line each. */
import { type Context, colorEnabled, outputFormat } from '../context.js';
import { chalkFor, colorJson } from './colour.js';
import type { ExerciseRecord } from '../catalogue/types.js';
import { RECORD_COLUMNS, itemLines, requestedFields, selectFields } from './fields.js';
import { jsonText } from './json.js';
import { write } from './streams.js';
import { oneLine } from '../util/text.js';
import { loadMeasure } from './width.js';
import { terminalRows, writePaged } from './list.js';
import { wrap } from './wrap.js';

type Paint = (text: string) => string;

/** `LOWER_BACK` → `lower back`. */
export function humanEnum(value: string): string {
  return value.toLowerCase().replace(/_/g, ' ');
}

const codePoints = (text: string): number => [...text].length;

/** The labelled lines of a record's card, each value one line of plain text (the web page shows the same). */
export function recordFields(record: ExerciseRecord): Array<[label: string, value: string]> {
  const clean = (v: unknown): string => oneLine(String(v));
  const word = (v: unknown): string => (v ? humanEnum(clean(v)) : '');
  const list = (v: unknown): string => (Array.isArray(v) ? v.map(word).join(', ') : '');
  const fields: Array<[string, string]> = [
    ['Name', record.displayName && record.displayName !== record.name ? clean(record.name) : ''],
    ['Also known as', Array.isArray(record.aliases) ? record.aliases.map(clean).join(', ') : ''],
    ['Category', word(record.category)],
    ['Primary muscles', list(record.primaryMuscle)],
    ['Secondary muscles', list(record.secondaryMuscle)],
    ['Equipment', word(record.equipment)],
    ['Level', word(record.level)],
    ['Mechanic', word(record.mechanic)],
    ['Force', word(record.force)],
  ];
  return fields.filter(([, value]) => value !== '');
}

export function renderRecordText(record: ExerciseRecord, options: { width: number; bold?: Paint; dim?: Paint; measure?: (text: string) => number }): string {
  const measure = options.measure ?? codePoints;
  const bold = options.bold ?? ((s: string) => s);
  const dim = options.dim ?? ((s: string) => s);
  const width = Math.max(40, options.width);
  /** `text` wrapped after a label of `lead` columns, blanks collapsed. */
  const wrapped = (text: string, lead: number): string => wrap(text.replace(/\s+/g, ' '), width, { indent: lead, measure }).slice(lead);
  const names = (v: unknown): string => (Array.isArray(v) ? v.map((x) => oneLine(String(x))).join(', ') : '');
  const field = (label: string, value: string): void => {
    if (value) lines.push(`${dim(`${label}:`)} ${wrapped(value, label.length + 2)}`);
  };
  const lines = [`${bold(oneLine(String(record.displayName ?? record.name)))}${record.id !== undefined ? dim(`  (${oneLine(String(record.id))})`) : ''}`];
  for (const [label, value] of recordFields(record)) field(label, value);
  if (Array.isArray(record.instructions) && record.instructions.length > 0) {
    lines.push(dim('Instructions:'));
    const digits = String(record.instructions.length).length;
    record.instructions.forEach((step, i) => {
      const label = `  ${String(i + 1).padStart(digits)}. `;
      lines.push(label + wrapped(oneLine(String(step)), label.length));
    });
  }
  field('Premium images', names(record.premiumImages));
  field('Premium videos', names(record.premiumVideos));
  return `${lines.join('\n')}\n`;
}

export interface RecordWriter {
  add(record: ExerciseRecord): Promise<void> | void;
  finish(): Promise<void>;
}

type OutCtx = Pick<Context, 'io' | 'env' | 'globals'>;

/** `many`: json writes an array. Checks `--json <fields>` first. */
export function createRecordWriter(ctx: OutCtx, many: boolean): RecordWriter {
  const out = ctx.io.stdout;
  const format = outputFormat(ctx);
  const fields = requestedFields(ctx.globals, 'record');
  let count = 0;
  switch (format) {
    case 'json': {
      const indent = ctx.io.stdoutIsTTY && !many ? 2 : undefined;
      const color = colorEnabled(ctx);
      return {
        add(record) {
          const plain = jsonText(selectFields(record, fields), indent);
          const text = color ? colorJson(plain) : plain;
          if (!many) return write(out, `${text}\n`);
          return write(out, `${count++ === 0 ? '[\n' : ',\n'}${text}`);
        },
        async finish() {
          if (many) await write(out, count === 0 ? '[]\n' : '\n]\n');
        },
      };
    }
    case 'table': {
      let paint: { bold?: Paint; dim?: Paint } | undefined;
      let measure: ((text: string) => number) | undefined;
      // Cards longer than the screen are held and paged, as tables are.
      const paged = ctx.globals.pager && ctx.io.stdoutIsTTY;
      let held = '';
      return {
        async add(record) {
          if (!paint) {
            const chalk = await chalkFor(ctx);
            paint = chalk ? { bold: chalk.bold, dim: chalk.dim } : {};
          }
          measure ??= (await loadMeasure()).width;
          const card = (count++ === 0 ? '' : '\n') + renderRecordText(record, { width: ctx.io.columns, measure, ...paint });
          if (paged) held += card;
          else await write(out, card);
        },
        async finish() {
          if (held === '') return;
          // Paged only at a known height (writePaged's rule).
          await (terminalRows(out) === undefined ? write(out, held) : writePaged(ctx, held, true));
        },
      };
    }
    default: {
      const lines = itemLines(format, RECORD_COLUMNS, fields);
      return {
        add: (record) => write(out, lines.line(record)),
        async finish() {
          const end = lines.end();
          if (end !== '') await write(out, end);
        },
      };
    }
  }
}
