/**
 * Ids from stdin for `show -` and `download -`: one per line; a JSON line contributes its
 * "id" (or "name"), so `exercises ids --format jsonl | exercises show -` works; a tsv line
 * contributes its first field, so plain `exercises ids | exercises show -` works too
 * (its header line is skipped). Blank lines are skipped.
 */
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { UsageError } from '../../errors.js';

function fromJson(line: string, lineNo: number): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new UsageError(`Line ${lineNo} of stdin looks like JSON but is not valid JSON.`);
  }
  const o = parsed as { id?: unknown; name?: unknown };
  const value = typeof o?.id === 'string' && o.id !== '' ? o.id : typeof o?.name === 'string' && o.name !== '' ? o.name : undefined;
  if (value === undefined) throw new UsageError(`Line ${lineNo} of stdin has no "id" or "name" field.`);
  return value;
}

/** Undoes tsvLine's escapes (\\ \t \n \r). */
function unescapeTsv(field: string): string {
  return field.replace(/\\([\\tnr])/g, (_m, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : '\\'));
}

export async function* readIds(input: Readable): AsyncIterable<string> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('{')) {
      yield fromJson(line, lineNo);
      continue;
    }
    if (raw.includes('\t')) {
      const first = raw.split('\t')[0]!.trim();
      if (lineNo === 1 && first === 'id') continue; // the header of our own tsv output
      if (first !== '') yield unescapeTsv(first);
      continue;
    }
    yield line;
  }
}
