/**
 * `--json [fields]` and `--format` together: a usage error when they ask for two different
 * output formats (never a silent choice). Which format is then in force: outputFormat in
 * src/context.ts (`--json` is json, or jsonl with `--format jsonl`).
 */
import type { OutputFormat } from '../config/settings.js';
import { UsageError } from '../errors.js';

export interface FormatFlags {
  /** commander's value for `--json [fields]`: true, the field list, or absent. */
  json?: unknown;
  format?: OutputFormat;
}

/** Formats `--json` goes with: json itself, and jsonl (the same objects, one per line). */
const JSON_FORMATS: ReadonlySet<OutputFormat> = new Set(['json', 'jsonl']);

/** Throws a UsageError for `--json` with `--format table|csv|tsv`. */
export function assertFormatFlags(flags: FormatFlags): void {
  if (flags.json === undefined || flags.json === false || flags.format === undefined) return;
  if (JSON_FORMATS.has(flags.format)) return;
  throw new UsageError(`--json and --format ${flags.format} ask for different output formats; give one of them.`, {
    hint: '--json [fields] writes JSON (with --format jsonl, one object per line); --format alone picks any format.',
  });
}
