/** csv (RFC 4180) and tsv lines; cells cleaned of escape sequences and controls (src/util/text.ts). */
import { cleanText } from '../util/text.js';

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection"): it starts with
 * `=`, `+`, `-`, `@`, tab or carriage return. Such a cell gets a leading `'`, which
 * spreadsheets show as text and do not evaluate.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end CRLF. */
export function csvLine(values: readonly string[]): string {
  return `${values
    .map((raw) => {
      const v = neutraliseFormula(cleanText(raw));
      return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
    })
    .join(',')}\r\n`;
}

/** tsv: backslash, tab, newline and carriage return escaped as \\ \t \n \r, so every record is one line. */
export function tsvLine(values: readonly string[]): string {
  return `${values
    .map((raw) => cleanText(raw).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')))
    .join('\t')}\n`;
}

export function delimitedLine(format: 'csv' | 'tsv', values: readonly string[]): string {
  return format === 'csv' ? csvLine(values) : tsvLine(values);
}
