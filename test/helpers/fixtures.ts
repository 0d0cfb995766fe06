/** Shared pieces of the client's integration tests: the sample catalogue, env for a server, parsers. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CatalogueEntry } from '../../src/catalogue/types.js';
import type { CatalogueServer } from '../helpers/server.js';

export const PREMIUM_KEY = 'sandbox-premium';

export const CATALOGUE: CatalogueEntry[] = readFileSync(fileURLToPath(new URL('../../sample/exercises.jsonl', import.meta.url)), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as CatalogueEntry);

/** Environment pointing the CLI at a test server with the premium key. */
export function serverEnv(server: CatalogueServer, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: PREMIUM_KEY, ...extra };
}

export function sortedIds(entries: ReadonlyArray<{ id?: string }>): string[] {
  return entries.map((e) => e.id!).sort();
}

export function jsonlIds(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { id: string }).id);
}

/** RFC 4180 parser (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** tsv with \\ \t \n \r escapes. */
export function parseTsv(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t').map((f) => f.replace(/\\([\\tnr])/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c as 't'] ?? '\\')));
}

export const ANSI = /\u001b\[/;
