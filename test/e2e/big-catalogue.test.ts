/**
 * A big local catalogue, end to end with the built CLI: `ids --all` lists every record whether
 * the catalogue is answered in-process (`--catalogue`, never cut by the command deadline) or by
 * the catalogue server, and `query --pick` with no terminal refuses before it lists anything.
 * 20,000 records here, read over many chunks as 150,000 are; bench/big-catalogue.mjs measures
 * 150,000 (time and peak memory, docs/performance.md).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, FREE_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';

const RECORDS = 20_000;
const GENERATOR = fileURLToPath(new URL('../../scripts/big-catalogue.mjs', import.meta.url));

let dir: string;
let server: CatalogueServer;

beforeAll(async () => {
  dir = join(tempDir('exercises-big-'), 'catalogue');
  await promisify(execFile)(process.execPath, [GENERATOR, dir, String(RECORDS)]);
  server = await startServer({ dir });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const lineCount = (text: string): number => text.split('\n').filter((line) => line !== '').length;

describe('a catalogue of 20,000 records', () => {
  it('--catalogue ids --all prints every id, exit 0, and the command deadline does not apply', async () => {
    // The shortest deadline there is: a local catalogue is not held to it.
    const r = await runCli(['--catalogue', dir, '--deadline', '1s', 'ids', '--all'], { timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lineCount(r.stdout)).toBe(RECORDS);
    expect(new Set(r.stdout.split('\n').map((line) => line.split('\t')[0])).size).toBe(RECORDS + 1); // and the empty last
  });

  it('served, ids --all prints every id, exit 0', async () => {
    const r = await runCli(['--base-url', server.url, '--api-key', FREE_KEY, 'ids', '--all', '--format', 'jsonl'], { timeoutMs: 90_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lineCount(r.stdout)).toBe(RECORDS);
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  });

  it('query --pick with no terminal refuses, exit 2, before it asks for anything', async () => {
    server.requests.length = 0;
    const args = ['query', '--all', '--pick', '--format', 'jsonl'];
    const served = await runCli(['--base-url', server.url, '--api-key', FREE_KEY, ...args], { detached: true, timeoutMs: 30_000 });
    expect(served.code).toBe(2);
    expect(served.stderr).toMatch(/^Error: --pick chooses at a terminal, and this run has none to ask/);
    expect(served.stdout).toBe('');
    expect(server.requests).toEqual([]);

    const local = await runCli(['--catalogue', dir, ...args], { detached: true, timeoutMs: 30_000 });
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/--pick chooses at a terminal/);
    expect(local.stdout).toBe('');
  });
});
