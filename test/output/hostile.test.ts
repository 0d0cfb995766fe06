/** Hostile catalogue data (escape sequences, tabs, newlines in names) never reaches a terminal raw. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { ANSI, parseCsv, parseTsv, serverEnv } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/temp.js';

const EVIL = { id: 'Evil_One', name: 'Evil\u001b[2J\u001b[31m Name', aliases: ['tab\there', 'new\nline'], instructions: ['step\u001b]0;title\u0007 one'] };

let server: CatalogueServer;
beforeAll(async () => {
  const dir = tempDir('exercises-hostile-');
  writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify(EVIL)}\n${JSON.stringify({ id: 'Calm', name: 'Calm' })}\n`);
  server = await startServer({ dir });
});
afterAll(() => server.close());

describe('hostile data', () => {
  for (const format of ['table', 'tsv', 'csv']) {
    it(`${format} output carries no escape sequences`, async () => {
      const r = await runInProcess(['ids', '--format', format], { env: serverEnv(server) });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/\u001b/);
      expect(r.stdout).toContain('Evil');
    });
  }

  it('the show card strips control characters; json keeps them escaped', async () => {
    const card = await runInProcess(['show', 'Evil_One', '--format', 'table'], { env: serverEnv(server) });
    expect(card.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    const json = await runInProcess(['show', 'Evil_One', '--format', 'json'], { env: serverEnv(server) });
    expect(json.stdout).not.toMatch(ANSI);
    expect(JSON.parse(json.stdout).name).toBe(EVIL.name);
  });

  it('tsv and csv keep one record per row despite tabs and newlines', async () => {
    const tsv = parseTsv((await runInProcess(['ids', '--format', 'tsv'], { env: serverEnv(server) })).stdout);
    expect(tsv).toHaveLength(2); // no header row in tsv
    expect(tsv.find((r) => r[0] === 'Evil_One')![3]).toBe('tab\there; new\nline');
    const csv = parseCsv((await runInProcess(['ids', '--format', 'csv'], { env: serverEnv(server) })).stdout);
    expect(csv).toHaveLength(3);
  });
});
