/**
 * `exercises serve --upstream`: the command's side — where the upstream key and the clients'
 * keys come from, the owner-only rule for their files, and a proxy that runs and stops
 * (in-process, stopped by aborting its signal as main() does on SIGINT/SIGTERM). SIGHUP goes to
 * a real child process, as an operator's `kill -HUP`: the keys file is read again, an added key
 * works, a removed one gets exit 3 from the CLI, a broken file is refused with a log line while
 * the keys in use stay, and the proxy keeps running.
 */
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseKeysFile, readOwnerOnlyFile } from '../../src/proxy/secret-files.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { type CliResult, isolatedHome } from '../helpers/run-cli.js';
import { until, withServeProcess } from './proxy-helpers.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

let upstream: CatalogueServer;
let dir: string;
let home: string;
beforeAll(async () => {
  upstream = await startServer();
  dir = tempDir('exercises-serve-upstream-');
  home = isolatedHome();
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function file(name: string, text: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

/** Runs serve with `args`; once it listens, `use(url)`, then stops it as Ctrl-C would. */
async function withProxy(args: string[], env: Record<string, string>, use: (url: string) => Promise<void> = async () => {}): Promise<CliResult> {
  let used: Promise<void> | undefined;
  const result = await runInProcess(['serve', '--port', '0', ...args], {
    env: { HOME: home, ...env },
    timeoutMs: 30_000,
    onStart(t) {
      used = t.stdout.waitFor(/\n/).then(async (text) => {
        try {
          await use(text.slice(0, text.indexOf('\n')).replace(/^Listening on /, ''));
        } finally {
          t.abort();
        }
      });
    },
  });
  if (result.stdout) await used;
  return result;
}

describe('secret files', () => {
  test('a keys file: KEY:PLAN lines, comments and blank lines; a bad line named by number, never quoted', () => {
    expect(parseKeysFile('# team\nalice:premium\n\n  bob:with:colons:free \n', 'k')).toEqual({
      alice: { plan: 'premium' },
      'bob:with:colons': { plan: 'free' },
    });
    expect(() => parseKeysFile('alice:premium\nsecret-key-text:gold\n', 'k')).toThrow(/^k:2: expected KEY:PLAN/);
    try {
      parseKeysFile('secret-key-text:gold\n', 'k');
    } catch (err) {
      expect((err as Error).message).not.toContain('secret-key-text');
    }
    expect(() => parseKeysFile('# nothing\n', 'k')).toThrow(/holds no key/);
  });

  test.skipIf(process.platform === 'win32')('a file others may read is refused, with the chmod to run', () => {
    const open = file('open-keys', 'alice:premium\n', 0o644);
    expect(() => readOwnerOnlyFile(open, '--keys-file')).toThrow(/may be read by others \(mode 644\)/);
    const closed = file('closed-keys', 'alice:premium\n', 0o600);
    expect(readOwnerOnlyFile(closed, '--keys-file')).toBe('alice:premium\n');
    expect(() => readOwnerOnlyFile(join(dir, 'missing'), '--keys-file')).toThrow(/cannot be read \(ENOENT\)/);
  });
});

describe('serve --upstream', () => {
  test('a proxy with keys from an owner-only file and the upstream key from an owner-only file answers, logs, and stops with exit 0', async () => {
    const keys = file('team-keys', '# the team\nalice-key:premium\nguest-key:free\n', 0o600);
    const upstreamKey = file('upstream-key', `${PREMIUM_KEY}\n`, 0o600);
    let record: Record<string, unknown> = {};
    const result = await withProxy(
      ['--upstream', upstream.url, '--keys-file', keys, '--upstream-key-file', upstreamKey, join(dir, 'mirror')],
      {},
      async (url) => {
        const res = await fetch(`${url}/exercise/Push_Up`, { headers: { 'x-api-key': 'guest-key' } });
        record = (await res.json()) as Record<string, unknown>;
      },
    );
    expect(result.code).toBe(0);
    expect(record.id).toBe('Push_Up');
    expect(record).not.toHaveProperty('premiumImages');
    expect(result.stderr).toMatch(/^\S+Z [0-9a-f]{8} GET \/exercise\/Push_Up 200 miss /m);
    expect(result.stderr + result.stdout).not.toContain(PREMIUM_KEY);
  });

  test("the upstream key from EXERCISES_UPSTREAM_KEY; the clients' from --key", async () => {
    let status = 0;
    const result = await withProxy(['--upstream', upstream.url, '--key', 'k1:premium'], { EXERCISES_UPSTREAM_KEY: PREMIUM_KEY }, async (url) => {
      status = (await fetch(`${url}/images/Push_Up/premium/start.png`, { headers: { 'x-api-key': 'k1' } })).status;
    });
    expect(result.code).toBe(0);
    expect(status).toBe(200);
  });

  test('refused before listening: no client key, a keys file others can read, no upstream key', async () => {
    const noKeys = await withProxy(['--upstream', upstream.url], { EXERCISES_UPSTREAM_KEY: PREMIUM_KEY });
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toMatch(/needs its clients' keys/);
    const open = file('open-team-keys', 'alice:premium\n', 0o644);
    const readable = await withProxy(['--upstream', upstream.url, '--keys-file', open], { EXERCISES_UPSTREAM_KEY: PREMIUM_KEY });
    expect(readable.code).toBe(2);
    expect(readable.stderr).toMatch(/chmod 600/);
    const noUpstreamKey = await withProxy(['--upstream', upstream.url, '--key', 'k1:premium'], {});
    expect(noUpstreamKey.code).toBe(3);
    expect(noUpstreamKey.stderr).toMatch(/No upstream key for the proxy/);
  });
});

describe('serve flags of the proxy alone', () => {
  test('--log-format json, --tls-cert and --upstream-key-file need --upstream; --tls-cert and --tls-key go together', async () => {
    const json = await runInProcess(['serve', '--port', '0', '--log-format', 'json'], { env: { HOME: home } });
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/--log-format needs --upstream <url>/);
    const half = await runInProcess(['serve', '--port', '0', '--upstream', upstream.url, '--key', 'k1:premium', '--tls-cert', 'c.pem'], {
      env: { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY },
    });
    expect(half.code).toBe(2);
    expect(half.stderr).toMatch(/--tls-cert and --tls-key go together/);
    const wrong = await runInProcess(['serve', '--port', '0', '--log-format', 'xml'], { env: { HOME: home } });
    expect(wrong.code).toBe(2);
  });

  test('an upstream key file that is a keys file is refused at start, naming neither key', async () => {
    const keys = file('keys-as-upstream', 'alice-secret-0123:premium:alice\n', 0o600);
    const result = await withProxy(['--upstream', upstream.url, '--key', 'k1:premium', '--upstream-key-file', keys], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/reads as a keys file/);
    expect(result.stderr).not.toContain('alice-secret-0123');
  });

  test('--log-format json through the command: the access log on stderr is one JSON object a line', async () => {
    const result = await withProxy(
      ['--upstream', upstream.url, '--key', 'k1:premium:ci', '--log-format', 'json'],
      { EXERCISES_UPSTREAM_KEY: PREMIUM_KEY },
      async (url) => {
        await fetch(`${url}/exercise/Plank`, { headers: { 'x-api-key': 'k1' } });
      },
    );
    expect(result.code).toBe(0);
    const line = result.stderr.split('\n').find((l) => l.startsWith('{'));
    expect(JSON.parse(line!)).toMatchObject({ client: 'ci', method: 'GET', path: '/exercise/Plank', status: 200, outcome: 'miss' });
  });
});

test('kill -HUP: an added key works, a removed key gets exit 3, a broken file is refused and the old keys stay; the proxy keeps running', async () => {
  const keysFile = join(dir, 'reloaded-keys');
  const writeKeys = (text: string): void => {
    writeFileSync(keysFile, text);
    chmodSync(keysFile, 0o600);
  };
  writeKeys('old-key-0123:premium:old\n');
  const result = await withServeProcess(
    ['--upstream', upstream.url, '--keys-file', keysFile],
    { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY },
    async (child, url, err) => {
      const cli = (key: string) => runInProcess(['--base-url', url, '--no-cache', 'show', 'Plank', '--json'], { env: { EXERCISES_API_KEY: key, HOME: home } });

      expect((await cli('old-key-0123')).code).toBe(0);
      writeKeys('# bob joined, old left\nnew-key-4567:premium:bob\n');
      child.kill('SIGHUP');
      await until(err, /proxy: reloaded 1 client key\.\n/);
      const removed = await cli('old-key-0123');
      expect(removed.code).toBe(3);
      expect(removed.stderr).toMatch(/rejected the API key \(401\)/);
      expect((await cli('new-key-4567')).code).toBe(0);
      await until(err, /Z bob GET \/exercise\/Plank 200 /); // the access log writes its lines after the answer

      writeKeys('new-key-4567:gold\n');
      child.kill('SIGHUP');
      const refused = (await until(err, /proxy: reload refused.*\n/))[0];
      expect(refused).toMatch(/reloaded-keys:1: expected KEY:PLAN/);
      expect(refused).not.toContain('new-key-4567');
      expect((await cli('new-key-4567')).code).toBe(0);
      expect(child.exitCode).toBeNull();
    },
  );
  expect(result.code).toBe(0);
  expect(result.signal).toBeNull();
});
