/**
 * Class 2, terminal injection: OSC/CSI sequences, C1 controls and bidi overrides put by the
 * server in cursors, ids, names and error messages never reach stdout, stderr or a file name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE, HOSTILE_TEXT, type HostileServer, TERMINAL_UNSAFE, json, listPage, pngBytes, send, startHostileServer } from '../helpers/hostile-server.js';
import { cli, expectTerminalSafe, filesUnder } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

const EVIL_ID = `Evil${HOSTILE_TEXT}`;
const evilSummaries = [
  { id: EVIL_ID, name: `Name${HOSTILE_TEXT}`, aliases: [`alias${HOSTILE.c1}`] },
  { id: 'Calm', name: `Calm ${HOSTILE.bidi}` },
];

describe('terminal injection', () => {
  it('the next-page footer shows a cursor full of escape sequences without them', async () => {
    server.route(/^\/exercise\/exerciseIds/, listPage(evilSummaries, { total: 50, next: `cur${HOSTILE_TEXT}sor` }));
    for (const tty of [true, false]) {
      const r = await cli(server, ['ids', '--limit', '2', '--format', 'table'], { tty, env: { PAGER: 'cat', NO_COLOR: '1' } });
      expect(r.code, r.stderr).toBe(0);
      expectTerminalSafe(r);
      expect(`${r.stdout}${r.stderr}`).toMatch(/cur.*sor/); // the footer is there, cleaned
    }
  });

  for (const format of ['table', 'tsv', 'csv', 'json', 'jsonl']) {
    it(`ids, names and aliases in ${format} carry no ESC, C1 or bidi byte`, async () => {
      server.route(/^\/exercise\/exerciseIds/, listPage(evilSummaries));
      const r = await cli(server, ['ids', '--all', '--format', format], { tty: format === 'table', env: { PAGER: 'cat', NO_COLOR: '1' } });
      expect(r.code, r.stderr).toBe(0);
      expectTerminalSafe(r);
      expect(r.stdout).toContain('Calm');
    });
  }

  it('a server error message with OSC, CSI, C1 and bidi reaches stderr clean, in text and in the JSON error line', async () => {
    server.route(/^\/exercise\//, json({ error: { code: 'nope', message: `Go away${HOSTILE_TEXT} now` } }, { status: 500 }));
    for (const format of ['table', 'json']) {
      const r = await cli(server, ['--retries', '0', 'show', 'Anything', '--format', format]);
      expect(r.code).toBe(6);
      expectTerminalSafe(r);
      expect(r.stderr).toContain('Go away');
      expect(r.stderr).not.toMatch(/pwned|\[2J|\[31m/); // sequences go whole, not leaving their tails
    }
  });

  it('a media failure quoting a server id and a C1-laden Content-Type reaches stderr clean', async () => {
    server.route(/^\/exercise\//, json({ id: EVIL_ID, name: 'Evil', premiumImages: ['start'] }));
    server.route(/^\/images\//, send(pngBytes(64), { contentType: 'text/x\u009b2J\u0085\u0090q\u009c' }));
    for (const format of ['table', 'json']) {
      const r = await cli(server, ['image', 'Evil', 'start', '-o', `${tempDir()}/x.png`, '--format', format]);
      expect(r.code, r.stderr).toBe(6);
      expectTerminalSafe(r);
      expect(r.stderr).toMatch(/instead of a PNG image/);
    }
  });

  it('an id quoted in an error message (not found, from the server) shows no raw control', async () => {
    server.route(/^\/exercise\//, send('', { status: 404 }));
    const r = await cli(server, ['show', `Bad${HOSTILE.c1}${HOSTILE.bidi}`, '--format', 'json']);
    expect(r.code).toBe(4);
    expectTerminalSafe(r);
  });

  it('media of an id with bidi and C1 controls lands under a file name without them', async () => {
    server.route(/^\/exercise\//, json({ id: EVIL_ID, name: 'Evil', premiumImages: [`start${HOSTILE.bidi}`] }));
    server.route(/^\/images\//, send(pngBytes(2048), { contentType: 'image/png' }));
    const dir = tempDir();
    const r = await cli(server, ['image', 'Evil', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expectTerminalSafe(r);
    const files = filesUnder(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toMatch(TERMINAL_UNSAFE);
  });
});
