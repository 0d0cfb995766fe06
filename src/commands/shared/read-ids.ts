/**
 * Ids from stdin for `show -` and `download -`: one per line; a JSON line contributes its
 * "id" (or "name"), so `exercises ids --format jsonl | exercises show -` works; a tsv line
 * contributes its first field, so plain `exercises ids | exercises show -` works too
 * (its header line is skipped). Blank lines are skipped.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { MAX_ID_LINE_BYTES } from '../../defaults.js';
import { UsageError } from '../../errors.js';

function tooLong(lineNo: number): UsageError {
  return new UsageError(`Line ${lineNo} of stdin is longer than ${MAX_ID_LINE_BYTES} bytes; it cannot be an exercise id.`, {
    hint: 'Give one id per line (or the output of `exercises ids`).',
  });
}

/** The lines of `input` (without their line break), each refused past MAX_ID_LINE_BYTES. */
async function* boundedLines(input: Readable): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let lineNo = 0;
  const take = (line: string): string => {
    lineNo++;
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (Buffer.byteLength(text, 'utf8') > MAX_ID_LINE_BYTES) throw tooLong(lineNo);
    return text;
  };
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer);
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      yield take(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
    // Characters never outnumber UTF-8 bytes: past this, the line is too long whatever follows.
    if (pending.length > MAX_ID_LINE_BYTES) throw tooLong(lineNo + 1);
  }
  pending += decoder.end();
  if (pending !== '') yield take(pending);
}

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
  let lineNo = 0;
  for await (const raw of boundedLines(input)) {
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
