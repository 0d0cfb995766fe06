/** Small pure pieces of the client: path segments, media URLs, the next-page command, delimited lines, stdin ids. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiClient, pathSegment } from '../../src/api/client.js';
import { Transport } from '../../src/http/transport.js';
import { nextPageGroups } from '../../src/output/next-page.js';

import { csvLine, tsvLine } from '../../src/output/fields.js';
import { readIds } from '../../src/commands/shared/requested-ids.js';
import { queryParamsFromOptions } from '../../src/commands/shared/query-filters.js';
import { pagingFromOptions } from '../../src/commands/shared/list-output.js';
import { maskSecret } from '../../src/util/text.js';
import { UsageError } from '../../src/errors.js';
import { parseCsv, parseTsv } from '../helpers/fixtures.js';

/** The next-page command on one line. */
const nextPageCommand = (...args: Parameters<typeof nextPageGroups>): string =>
  nextPageGroups(...args)
    .flat()
    .join(' ');

describe('api client URLs', () => {
  const api = new ApiClient({
    baseUrl: 'https://api.example.com/v1',
    transport: async () => new Transport({ baseUrl: 'https://api.example.com/v1', settings: { timeout: 1000, retries: 0 } }),
  });

  it('percent-encodes ids and names as one path segment, dots included', () => {
    expect(pathSegment('90/90 Hip Switch')).toBe('90%2F90%20Hip%20Switch');
    expect(pathSegment('...')).toBe('...');
    expect(() => pathSegment('..')).toThrow(UsageError);
    expect(() => pathSegment('.')).toThrow(UsageError);
  });

  it('builds media URLs from bare names, names with an extension, paths and absolute URLs', () => {
    expect(api.mediaUrl('image', 'Push_Up', 'start').href).toBe('https://api.example.com/v1/images/Push_Up/premium/start.png');
    expect(api.mediaUrl('video', 'A B', 'demo.mp4').href).toBe('https://api.example.com/v1/videos/A%20B/premium/demo.mp4');
    expect(api.mediaUrl('image', 'x', '../../etc/passwd').pathname).toBe('/v1/images/x/premium/..%2F..%2Fetc%2Fpasswd.png');
    expect(api.mediaUrl('image', 'x', '..').pathname).toBe('/v1/images/x/premium/...png');
    expect(api.mediaUrl('image', 'x', '/cdn/a.png').href).toBe('https://api.example.com/v1/cdn/a.png');
    expect(api.mediaUrl('image', 'x', 'https://cdn.example.net/a.png').href).toBe('https://cdn.example.net/a.png');
  });
});

describe('next page command', () => {
  it('replaces paging flags, drops --api-key and quotes for the shell', () => {
    expect(nextPageCommand(['--api-key', 'secret', 'query', '--name', "farmer's walk", '--after=x', '--all', '--max', '3'], 'c2')).toBe(
      `exercises query --name 'farmer'\\''s walk' --after c2`,
    );
    expect(nextPageCommand(['ids', '--before', 'b'], 'p1', 'before')).toBe('exercises ids --before p1');
  });
});

describe('delimited lines', () => {
  const hostile = ['plain', 'comma, here', 'quote "q"', 'line\nbreak', 'tab\there', 'back\\slash', '\u001b[31mred'];
  it('csv quotes per RFC 4180 and reads back', () => {
    expect(csvLine(['a', 'b,c'])).toBe('a,"b,c"\r\n');
    expect(parseCsv(csvLine(hostile))[0]).toEqual([...hostile.slice(0, 6), 'red']);
  });
  it('tsv escapes tabs, newlines and backslashes and reads back', () => {
    const line = tsvLine(hostile);
    expect(line.split('\n')).toHaveLength(2);
    expect(parseTsv(line)[0]).toEqual([...hostile.slice(0, 6), 'red']);
  });
});

describe('readIds', () => {
  it('takes plain lines, JSON lines and our tsv, skipping blanks and the tsv header', async () => {
    const input = Readable.from(['a\n\n  b  \n{"id":"c"}\n{"name":"D e"}\n']);
    const out: string[] = [];
    for await (const id of readIds(input)) out.push(id);
    expect(out).toEqual(['a', 'b', 'c', 'D e']);
    const tsv: string[] = [];
    for await (const id of readIds(Readable.from(['id\tname\nx\\ty\tX\nz\tZ\n']))) tsv.push(id);
    expect(tsv).toEqual(['x\ty', 'z']);
  });
  it('rejects a JSON line without id or name', async () => {
    const iter = readIds(Readable.from(['{"x":1}\n']))[Symbol.asyncIterator]();
    await expect(iter.next()).rejects.toBeInstanceOf(UsageError);
  });
});

describe('flag parsing', () => {
  it('normalises friendly enum values and comma lists', () => {
    expect(queryParamsFromOptions({ muscle: ['Lower Back'], category: ['strength,cardio', 'strength'], equipment: ['ez curl bar'] })).toEqual({
      primaryMuscle: 'LOWER_BACK',
      category: ['STRENGTH', 'CARDIO'],
      equipment: ['E_Z_CURL_BAR'],
    });
  });
  it('paging: defaults, --max caps the page size, --after with --before refused', () => {
    expect(pagingFromOptions({})).toMatchObject({ limit: 10, follow: false });
    expect(pagingFromOptions({ all: true })).toMatchObject({ limit: 25, follow: true });
    expect(pagingFromOptions({ max: 3 })).toMatchObject({ limit: 3, follow: true, max: 3 });
    expect(() => pagingFromOptions({ after: 'a', before: 'b' })).toThrow(UsageError);
  });
  it('masks keys', () => {
    expect(maskSecret('sandbox-premium')).toBe('sa…um');
    expect(maskSecret('short')).toBe('*****');
  });
});
