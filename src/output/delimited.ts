/** csv (RFC 4180) and tsv lines. */
import { stripControl } from './write.js';

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end CRLF. */
export function csvLine(values: readonly string[]): string {
  return `${values
    .map((raw) => {
      const v = stripControl(raw);
      return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
    })
    .join(',')}\r\n`;
}

/** tsv: backslash, tab, newline and carriage return escaped as \\ \t \n \r, so every record is one line. */
export function tsvLine(values: readonly string[]): string {
  return `${values
    .map((raw) =>
      stripControl(raw).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')),
    )
    .join('\t')}\n`;
}

export function delimitedLine(format: 'csv' | 'tsv', values: readonly string[]): string {
  return format === 'csv' ? csvLine(values) : tsvLine(values);
}
