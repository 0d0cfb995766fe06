/**
 * Class 10, the smaller holes: a config directory open to all under umask 000, a config file
 * that is a symlink written through, a 100 MB stdin line read whole and echoed, an empty
 * --base-url taken as the default, CONIN$/CONOUT$ as folder names, a summary claiming files
 * "in place" when none are, spreadsheet formulas in csv cells.
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, json, listPage, pngBytes, send, startHostileServer } from '../helpers/hostile-server.js';
import { CLI_PATH, isolatedHome, runCli, testEnv } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { KEY, cli, filesUnder, timed } from './support.js';
import { tempDir } from '../helpers/temp.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

/** Runs the built CLI under `umask 000`, as a shell would. */
function underUmask000(args: string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const quoted = [process.execPath, CLI_PATH, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('/bin/sh', ['-c', `umask 000 && exec ${quoted}`], { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('config on disk', () => {
  it('creates the config directory 0700 and the file 0600 even under umask 000', async () => {
    const home = isolatedHome();
    const env = testEnv({ HOME: home });
    expect(await underUmask000(['config', 'set', 'timeout', '5000'], env)).toBe(0);
    const dir = join(home, '.config', 'exercises');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('tightens a config directory made earlier with wider permissions', async () => {
    const home = isolatedHome();
    const dir = join(home, '.config', 'exercises');
    mkdirSync(dir, { recursive: true, mode: 0o777 });
    const r = await runInProcess(['config', 'set', 'retries', '2'], { env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
  });

  it('refuses to write through a config file that is a symbolic link', async () => {
    const home = isolatedHome();
    const dir = join(home, '.config', 'exercises');
    mkdirSync(dir, { recursive: true });
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, '{}\n');
    symlinkSync(target, join(dir, 'config.json'));
    for (const args of [
      ['config', 'set', 'timeout', '5000'],
      ['auth', 'login', '--with-key'],
    ]) {
      const r = await runInProcess(args, { env: { HOME: home }, input: 'a-new-key-123456\n' });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/symbolic link/);
    }
    expect(readFileSync(target, 'utf8')).toBe('{}\n'); // untouched
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
  });
});

describe('stdin ids', () => {
  it('a 100 MB line is a usage error naming its line, with a short message, no request sent', async () => {
    const input = Buffer.alloc(100 * 1024 * 1024 + 1, 0x61);
    input[input.length - 1] = 0x0a;
    const { result: r, ms } = await timed(() => runCli(['--base-url', server.url, 'show', '-'], { input, env: { EXERCISES_API_KEY: KEY }, timeoutMs: 30_000 }));
    expect(r.code, r.stderr.slice(0, 300)).toBe(2);
    expect(r.stderr).toMatch(/Line 1 of stdin is longer than 4096 bytes/);
    expect(r.stderr.length).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(0);
    expect(ms).toBeLessThan(20_000);
  });

  it('names the over-long line among good ones; lines up to the cap still work', async () => {
    server.route(/^\/exercise\//, json({ id: 'A', name: 'A' }));
    const okLine = `${'b'.repeat(4096)}`;
    const r1 = await cli(server, ['show', '-', '--format', 'jsonl'], { input: `A\n${okLine}\n` });
    expect(r1.code, r1.stderr).toBe(0);
    const r2 = await cli(server, ['show', '-'], { input: `A\nA\n${'c'.repeat(5000)}\nA\n` });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/Line 3 of stdin/);
    expect(r2.stderr).not.toContain('ccccc');
  });
});

describe('settings and names', () => {
  it('--base-url "" is a usage error, not the default service', async () => {
    // The variable points at the test server, so a client that ignored the empty flag stays on loopback.
    const r = await runInProcess(['--base-url', '', 'show', 'Plank'], { env: { EXERCISES_API_KEY: KEY, EXERCISES_BASE_URL: server.url } });
    expect(r.code).toBe(2);
    expect(server.requests).toHaveLength(0);
    expect(r.stderr).toMatch(/--base-url is empty/);
  });

  it('CONIN$ and CONOUT$ ids never become folder names Windows would take for consoles', async () => {
    server.route(/^\/exercise\//, (req, res, s) => {
      const id = decodeURIComponent((req.url ?? '').split('/')[2]!.split('?')[0]!);
      return json({ id, name: id, premiumImages: ['start'] })(req, res, s);
    });
    server.route(/^\/images\//, send(pngBytes(1024), { contentType: 'image/png' }));
    const dir = tempDir();
    const r = await cli(server, ['download', 'CONIN$', 'conout$', 'CONOUT$.txt', '--images', '--dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const files = filesUnder(dir);
    expect(files).toHaveLength(3);
    for (const f of files) expect(f.split('/')[0]).not.toMatch(/^(conin\$|conout\$)(\.|$)/i);
  });

  it('when every file failed, the summary says nothing was saved (not "the others are in place")', async () => {
    server.route(/^\/exercise\//, json({ id: 'A', name: 'A', premiumImages: ['start', 'end'] }));
    server.route(/^\/images\//, send('nope', { status: 404, contentType: 'text/plain' }));
    const r = await cli(server, ['download', 'A', '--images', '--dir', tempDir()]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/nothing was saved/);
    expect(r.stderr).not.toMatch(/in place/);
  });

  it('csv cells that a spreadsheet would run as formulas are neutralised', async () => {
    const names = ['=HYPERLINK("http://x")', '+1', '-1', '@SUM(A1)', '\tTab', '\rCR'];
    server.route(/^\/exercise\/exerciseIds/, listPage(names.map((name, i) => ({ id: `F${i}`, name }))));
    const r = await cli(server, ['ids', '--all', '--format', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const cells = r.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1]!.replace(/^"|"$/g, ''));
    expect(cells).toHaveLength(names.length);
    for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(cells.filter((c) => c.startsWith("'"))).toHaveLength(5); // "\rCR" lost its CR to the sanitiser instead
  });
});
