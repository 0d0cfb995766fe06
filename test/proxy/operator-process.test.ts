/**
 * The operator's tools on a running proxy, the built CLI as a child process as an operator runs
 * it: `serve keys add` picked up with no signal (the keys file is watched), `keys remove` then
 * 401; --access-log reopened on SIGUSR1 after logrotate moved it, probes left out of it; a
 * certificate renewed wrongly (expired) refused on SIGHUP while the one in use serves on; a key
 * given twice refused on a reload, a label given twice warned of. And the mistakes refused at start (exit 2): a key given twice, the upstream key as a client's, an
 * expired certificate, an access log that cannot be opened.
 */
import { copyFileSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDirsPerTest } from '../helpers/temp.js';
import { hasOpenssl, makeCertificate } from './certificates.js';
import { until, withServeProcess } from './proxy-helpers.js';

const tempDir = tempDirsPerTest('exercises-operator-');
let upstream: CatalogueServer;
let home: string;
beforeAll(async () => {
  upstream = await startServer();
  home = isolatedHome();
});
afterAll(async () => {
  await upstream.close();
  rmSync(home, { recursive: true, force: true });
});

const env = () => ({ HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY });

const withChild = (args: string[], use: Parameters<typeof withServeProcess>[2]) => withServeProcess(['--upstream', upstream.url, ...args], env(), use);

const keysCommand = (...args: string[]) => runInProcess(['serve', 'keys', ...args], { env: { HOME: home } });
const plank = (url: string, key: string) => fetch(`${url}/exercise/Plank`, { headers: { 'x-api-key': key } });

test('keys add: the running proxy takes the key with no signal; keys remove: 401; the access log reopened on SIGUSR1 after a move, without probes', async () => {
  const dir = tempDir();
  const keysFile = join(dir, 'team-keys');
  const log = join(dir, 'access.log');
  expect((await keysCommand('add', 'ci', '--plan', 'free', '--keys-file', keysFile)).code).toBe(0);
  const result = await withChild(['--keys-file', keysFile, '--access-log', log], async (child, url, err) => {
    const added = await keysCommand('add', 'alice', '--plan', 'premium', '--keys-file', keysFile);
    const alice = added.stdout.trim();
    await until(err, /^\S+Z proxy: reloaded 2 client keys\.\n/m);
    expect((await plank(url, alice)).status).toBe(200);
    expect((await fetch(`${url}/-/metrics`)).status).toBe(200);
    await until(() => readFileSync(log, 'utf8'), /Z alice GET \/exercise\/Plank 200 miss /);

    renameSync(log, `${log}.1`);
    child.kill('SIGUSR1');
    await until(err, /Z proxy: reopened the access log \S+access\.log\.\n/);
    expect((await keysCommand('remove', 'alice', '--keys-file', keysFile)).code).toBe(0);
    await until(err, /Z proxy: reloaded 1 client key\.\n/);
    expect((await plank(url, alice)).status).toBe(401);
    await until(() => readFileSync(log, 'utf8'), /Z - GET \/exercise\/Plank 401 - /);
    expect(err()).not.toContain(alice);

    // Mistakes on a reload: a label given twice is warned of; a key given twice is refused, the keys in use stay.
    const ci = readFileSync(keysFile, 'utf8').trim().split(':')[0]!;
    writeFileSync(keysFile, `${readFileSync(keysFile, 'utf8')}${'b'.repeat(48)}:free:ci\n`);
    await until(err, /Z \S+team-keys:2: the label ci is also on line 1; both keys count as one client\.\n/);
    writeFileSync(keysFile, `${readFileSync(keysFile, 'utf8')}${ci}:premium:again\n`);
    expect((await until(err, /Z proxy: reload refused, the keys and certificate in use stay: .*\n/))[0]).toMatch(/team-keys:3: the same key as line 1/);
    expect((await plank(url, 'b'.repeat(48))).status).toBe(200);
    expect(err()).not.toContain(ci);
  });
  expect(result.code).toBe(0);
  const [moved, fresh] = [readFileSync(`${log}.1`, 'utf8'), readFileSync(log, 'utf8')];
  expect(moved.trim().split('\n')).toEqual([expect.stringMatching(/Z alice GET \/exercise\/Plank 200 miss /)]);
  expect(fresh.trim().split('\n')).toEqual([
    expect.stringMatching(/Z - GET \/exercise\/Plank 401 - /),
    expect.stringMatching(/Z ci GET \/exercise\/Plank 200 hit /),
  ]);
  expect(statSync(log).mode & 0o777).toBe(0o640);
  // Nothing of the access log on stderr: only the proxy's own lines, each with its time.
  expect(
    result.stderr
      .trim()
      .split('\n')
      .every((l) => /^\d{4}-\d\d-\d\dT\S+Z (proxy:|Proxy of |\/\S+team-keys:2: )/.test(l)),
  ).toBe(true);
});

test('SIGUSR1 without --access-log: said and ignored; it never opens a debugger on the proxy holding the upstream key', async () => {
  const result = await withChild(['--key', 'k1:premium'], async (child, url, err) => {
    child.kill('SIGUSR1');
    await until(err, /Z proxy: SIGUSR1 ignored: the access log goes to stderr .*\n/);
    expect((await plank(url, 'k1')).status).toBe(200);
  });
  expect(result.code).toBe(0);
  expect(result.stderr).not.toMatch(/Debugger listening|inspector/i);
});

test('SIGHUP sent the moment the proxy says it listens rereads its files; it never ends the proxy', async () => {
  // A few starts: the signal must find the handler in place however the processes are scheduled.
  for (let i = 0; i < 5; i++) {
    let err = '';
    const result = await runCli(['serve', '--upstream', upstream.url, '--key', 'k1:premium', '--port', '0'], {
      env: env(),
      timeoutMs: 60_000,
      onSpawn(child) {
        child.stdout?.on('data', (b: Buffer) => {
          if (b.toString('utf8').includes('Listening on ')) child.kill('SIGHUP');
        });
        child.stderr?.on('data', (b: Buffer) => {
          err += b.toString('utf8');
          if (/proxy: reloaded 1 client key\./.test(err)) child.kill('SIGTERM');
        });
      },
    });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Z proxy: reloaded 1 client key\.\n/);
  }
}, 120_000);

describe.skipIf(!hasOpenssl)('certificate dates on a running proxy', () => {
  test('one near its end is warned of at start; an expired one put in its place is refused on SIGHUP and the one in use serves on', async () => {
    const dir = tempDir();
    const now = Date.now();
    const day = 24 * 3_600_000;
    const soon = makeCertificate(dir, 'soon', { from: new Date(now - day), to: new Date(now + 5 * day) });
    const expired = makeCertificate(dir, 'expired', { from: new Date(now - 9 * day), to: new Date(now - day) });
    const result = await withChild(['--key', 'k1:premium', '--tls-cert', soon.cert, '--tls-key', soon.key], async (child, url, err) => {
      expect(err()).toMatch(/Z Warning: --tls-cert \S+soon\.crt expires in 4 days \(valid from /);
      copyFileSync(expired.cert, soon.cert);
      copyFileSync(expired.key, soon.key);
      child.kill('SIGHUP');
      expect((await until(err, /proxy: reload refused.*\n/))[0]).toMatch(/--tls-cert \S+soon\.crt has expired \(valid from \S+ to \S+\)/);
      const port = Number(new URL(url).port);
      const served = await new Promise<string>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
          resolve(String(socket.getPeerCertificate().subject.CN));
          socket.end();
        });
        socket.on('error', reject);
      });
      expect(served).toBe('soon');
    });
    expect(result.code).toBe(0);
  });
});

describe('refused at start (exit 2), naming the line and quoting no key', () => {
  const serve = (args: string[]) => runInProcess(['serve', '--upstream', upstream.url, '--port', '0', ...args], { env: env() });

  test('a key given twice, the upstream key in the file or on --key', async () => {
    const dir = tempDir();
    const file = (text: string) => {
      const path = join(dir, `keys-${Math.random().toString(36).slice(2)}`);
      writeFileSync(path, text, { mode: 0o600 });
      return path;
    };
    const twice = await serve(['--keys-file', file('secret-one-0123:premium:a\nsecret-two-4567:free\nsecret-one-0123:free:b\n')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/keys-\w+:3: the same key as line 1/);
    const upstreamKey = await serve(['--keys-file', file(`secret-one-0123:premium\n${PREMIUM_KEY}:premium:ci\n`)]);
    expect(upstreamKey.code).toBe(2);
    expect(upstreamKey.stderr).toMatch(/:2: this is the upstream key/);
    const flag = await serve(['--key', `${PREMIUM_KEY}:premium`]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--key gives the upstream key as a client key/);
    for (const r of [twice, upstreamKey, flag]) expect(r.stdout + r.stderr).not.toMatch(/secret-one|secret-two|sandbox-premium/);
  });

  test.skipIf(!hasOpenssl)('an expired certificate; an access log that cannot be opened, or without --upstream', async () => {
    const dir = tempDir();
    const old = makeCertificate(dir, 'old', { from: new Date(Date.now() - 90 * 24 * 3_600_000), to: new Date(Date.now() - 3_600_000) });
    const expired = await serve(['--key', 'k1:premium', '--tls-cert', old.cert, '--tls-key', old.key]);
    expect(expired.code).toBe(2);
    expect(expired.stderr).toMatch(/--tls-cert \S+old\.crt has expired \(valid from \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ to /);
    const noDir = await serve(['--key', 'k1:premium', '--access-log', join(dir, 'missing', 'access.log')]);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/--access-log \S+access\.log cannot be opened: .*\(ENOENT\)/);
    const alone = await runInProcess(['serve', '--port', '0', '--access-log', join(dir, 'a.log')], { env: { HOME: home } });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--access-log needs --upstream <url>/);
  });
});
