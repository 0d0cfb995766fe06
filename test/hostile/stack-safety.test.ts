/**
 * Class 1, stack safety: an answer nested thousands of levels deep, or a list page of 150,000
 * summaries, prints or is a clean exit 6 — never exit 1 with "Maximum call stack size exceeded".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, deepRecord, json, listPage, manySummaries, startHostileServer } from '../helpers/hostile-server.js';
import { cli } from './support.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

describe('stack safety', () => {
  for (const format of ['json', 'jsonl', 'table', 'csv']) {
    it(`show: a record with a field nested 5,000 deep is exit 6 in ${format}, refused by the transport`, async () => {
      server.route(/^\/exercise\/Deep/, deepRecord('Deep', 5_000));
      const r = await cli(server, ['show', 'Deep', '--format', format]);
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toMatch(/nests deeper than 64 levels/);
      expect(r.stderr).not.toMatch(/call stack/i);
      expect(r.stdout).not.toContain('Deep'); // csv may have written its header
    });
  }

  it('show: just past the depth limit (65) is refused too, well before any walk could overflow', async () => {
    server.route(/^\/exercise\/Deep/, deepRecord('Deep', 64));
    const r = await cli(server, ['show', 'Deep', '--format', 'json']);
    expect(r.code, r.stderr).toBe(6);
  });

  it('query and ids: a list page with a deep unknown field is exit 6, not 1', async () => {
    const deep = `{"id":"D","name":"D","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    server.route(/^\/exercise\/(query|exerciseIds)/, json(`{"exercises":[${deep}],"pagination":{"total":1,"next":null}}`));
    for (const args of [
      ['query', '--name', 'd', '--format', 'jsonl'],
      ['ids', '--format', 'json'],
    ]) {
      const r = await cli(server, args);
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).not.toMatch(/call stack/i);
    }
  });

  // Built once for the three formats: making and serialising 150,000 summaries cost about a
  // second of CPU each time.
  let hugePage: ReturnType<typeof listPage> | undefined;
  for (const format of ['table', 'tsv', 'json']) {
    it(`ids: a page of 150,000 summaries prints in ${format} or exits 6, never 1`, async () => {
      server.route(/^\/exercise\/exerciseIds/, (hugePage ??= listPage(manySummaries(150_000))));
      const r = await cli(server, ['ids', '--all', '--format', format], { columns: 120 });
      expect([0, 6], r.stderr.slice(0, 500)).toContain(r.code);
      expect(r.stderr).not.toMatch(/call stack|Unexpected error/i);
      if (r.code === 0) expect(r.stdout).toContain('E149999');
    });
  }

  it('download --dry-run: a page of 150,000 summaries with a picture each plans every file, never exit 1', async () => {
    // Short names keep the page under the 8 MiB a JSON answer may have.
    const summaries = Array.from({ length: 150_000 }, (_, i) => ({ id: `E${i}`, name: 'x', premiumImages: ['a.png'] }));
    server.route(/^\/exercise\/exerciseIds/, listPage(summaries));
    const r = await cli(server, ['download', '--all', '--images', '--dry-run', '--format', 'json']);
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    const files = (JSON.parse(r.stdout) as { files: Array<{ path: string }> }).files;
    expect(files).toHaveLength(150_000);
    expect(files.at(-1)!.path).toContain('E149999');
  });
});
