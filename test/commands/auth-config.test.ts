/** auth login/status/logout and config get/set/unset/list/path round trips; the stored file's mode; --sandbox. */
import { statSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { CONFIG_KEYS } from '../../src/config/settings.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { CATALOGUE, PREMIUM_KEY, jsonlIds, sortedIds } from '../helpers/fixtures.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('auth', () => {
  it('login --with-key stores the key (mode 0600), status reports it masked and accepted, logout removes it', async () => {
    const home = isolatedHome();
    const env = { HOME: home, EXERCISES_BASE_URL: server.url };
    const login = await runInProcess(['auth', 'login', '--with-key'], { env, input: `${PREMIUM_KEY}\n` });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('sa…um');
    expect(login.stdout + login.stderr).not.toContain(PREMIUM_KEY);

    const path = (await runInProcess(['config', 'path'], { env })).stdout.trim();
    expect(path).toBe(join(home, '.config', 'exercises', 'config.json'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))['api-key']).toBe(PREMIUM_KEY);

    const before = server.requests.length;
    const status = await runInProcess(['auth', 'status'], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Key: +sa…um \(from the stored config\)/);
    expect(status.stdout).toMatch(/accepts the key/);
    expect(status.stdout + status.stderr).not.toContain(PREMIUM_KEY);
    expect(server.requests.length - before).toBe(1); // one cheap request
    expect(server.requests.at(-1)!.query).toBe('limit=1');

    const queried = await runInProcess(['ids', '--limit', '2', '--format', 'jsonl'], { env });
    expect(jsonlIds(queried.stdout)).toHaveLength(2);

    const logout = await runInProcess(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))['api-key']).toBeUndefined();
    expect((await runInProcess(['ids'], { env })).code).toBe(3);
  });

  it('status says which source is in use: flag over env over stored', async () => {
    const home = isolatedHome();
    const env = { HOME: home, EXERCISES_BASE_URL: server.url };
    await runInProcess(['auth', 'login', '--with-key'], { env, input: 'stored-key-0001' });
    const stored = await runInProcess(['auth', 'status', '--no-verify', '--json'], { env });
    expect(JSON.parse(stored.stdout)).toMatchObject({ source: 'config', key: 'st…01' });
    const fromEnv = await runInProcess(['auth', 'status', '--no-verify', '--json'], { env: { ...env, EXERCISES_API_KEY: 'env-key-0002' } });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ source: 'env', key: 'en…02' });
    const fromFlag = await runInProcess(['--api-key', 'flag-key-0003', 'auth', 'status', '--no-verify', '--json'], {
      env: { ...env, EXERCISES_API_KEY: 'env-key-0002' },
    });
    expect(JSON.parse(fromFlag.stdout)).toMatchObject({ source: 'flag', key: 'fl…03' });
  });

  it('status names the flag or variable each setting came from', async () => {
    const env = { HOME: isolatedHome(), EXERCISES_BASE_URL: server.url };
    const viaFlag = await runInProcess(['--api-key', 'flag-key-0003', 'auth', 'status', '--no-verify', '--format', 'table'], { env });
    expect(viaFlag.stdout).toMatch(/Key: +fl…03 \(from the --api-key flag\)/);
    expect(viaFlag.stdout).toMatch(/Base URL: +http:\/\/127\.0\.0\.1:\d+\/? \(from EXERCISES_BASE_URL\)/);
    const viaEnv = await runInProcess(['--base-url', server.url, 'auth', 'status', '--no-verify', '--format', 'table'], {
      env: { ...env, EXERCISES_API_KEY: 'env-key-0002' },
    });
    expect(viaEnv.stdout).toMatch(/Key: +en…02 \(from EXERCISES_API_KEY\)/);
    expect(viaEnv.stdout).toMatch(/Base URL: .*\(from the --base-url flag\)/);
  });

  it('status labels a stored base URL and the default one (--no-verify: no request)', async () => {
    const env = { HOME: isolatedHome(), EXERCISES_API_KEY: 'env-key-0004' };
    const byDefault = await runInProcess(['auth', 'status', '--no-verify'], { env });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(byDefault.stdout).toMatch(/Base URL: +https:\/\/api\.wrkout\.xyz \(default\)/);
    expect(byDefault.stdout).toMatch(/Service: +not checked/);
    expect((await runInProcess(['config', 'set', 'base-url', server.url], { env })).code).toBe(0);
    const stored = await runInProcess(['auth', 'status', '--no-verify', '--json'], { env });
    expect(JSON.parse(stored.stdout)).toEqual({ key: 'en…04', source: 'env', baseUrl: server.url, baseUrlSource: 'config' });
  });

  it('status exits 3 when the service rejects the key', async () => {
    const r = await runInProcess(['auth', 'status'], { env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'not-a-real-key' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/rejects the key/);
  });

  it('login refuses an empty key and a non-terminal stdin without --with-key', async () => {
    expect((await runInProcess(['auth', 'login', '--with-key'], { input: '\n' })).code).toBe(2);
    const r = await runInProcess(['auth', 'login'], { input: 'k' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--with-key');
  });

  it('login --verify checks the key with one request and stores nothing when rejected', async () => {
    const home = isolatedHome();
    const env = { HOME: home, EXERCISES_BASE_URL: server.url };
    const r = await runInProcess(['auth', 'login', '--with-key', '--verify'], { env, input: 'bad-key-123' });
    expect(r.code).toBe(3);
    expect((await runInProcess(['config', 'get', 'api-key'], { env })).stdout).toBe('');
  });
});

describe('auth with --sandbox', () => {
  it('never touches the real settings: login, logout, config set and unset are usage errors under --sandbox', async () => {
    // A service that knows none of the sandbox keys, and must not be asked.
    const office = await startServer({ keys: { 'office-key': 'premium' } });
    try {
      const env = { HOME: isolatedHome(), EXERCISES_BASE_URL: office.url };
      for (const args of [
        ['--sandbox', 'auth', 'login', '--with-key', '--verify'],
        ['--sandbox', 'auth', 'logout'],
        ['--sandbox', 'config', 'set', 'lang', 'de-DE'],
        ['--sandbox', 'config', 'unset', 'lang'],
      ]) {
        const r = await runInProcess(args, { env, input: PREMIUM_KEY });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr).toMatch(/--sandbox never changes your stored settings/);
      }
      expect(office.requests).toHaveLength(0);
      expect((await runInProcess(['config', 'path'], { env })).code).toBe(0);
      const list = JSON.parse((await runInProcess(['config', 'list', '--json'], { env })).stdout);
      expect(list['api-key']).toEqual({ value: null, source: 'default' });
      expect(list.lang).toEqual({ value: 'en-GB', source: 'default' });
    } finally {
      await office.close();
    }
  });

  it('status names the sandbox as the source of both the key and the base URL', async () => {
    const r = await runInProcess(['--sandbox', 'auth', 'status', '--json'], { env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: 'other' } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ key: 'sa…um', source: 'sandbox', baseUrlSource: 'sandbox', accepted: true });
    expect(JSON.parse(r.stdout).baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('config', () => {
  it('shows defaults with their source, names every key in its help, reads every duration alike, suggests a near key', async () => {
    const env = { HOME: isolatedHome() };
    const ttl = await runInProcess(['config', 'get', 'cache-ttl'], { env, tty: true });
    expect(ttl.code).toBe(0);
    expect(ttl.stdout).toBe('24h\n'); // not empty: the default in force
    expect(ttl.stderr).toContain('the default');
    const list = await runInProcess(['config', 'list'], { env });
    expect(list.stdout).toMatch(/^cache-ttl\s+24h\s+default$/m);
    expect(list.stdout).toMatch(/^timeout\s+30s\s+default$/m);
    const help = await runInProcess(['config', '--help'], { env });
    for (const { name } of CONFIG_KEYS) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    for (const [key, value, shown] of [
      ['timeout', '5s', '5s'],
      ['cache-ttl', '90m', '90m'],
      ['deadline', '2m', '2m'],
    ]) {
      const set = await runInProcess(['config', 'set', key!, value!], { env });
      expect(set.code, `${key} ${value}: ${set.stderr}`).toBe(0);
      expect((await runInProcess(['config', 'get', key!], { env })).stdout).toBe(`${shown}\n`);
    }
    const near = await runInProcess(['config', 'set', 'langg', 'de-DE'], { env });
    expect(near.code).toBe(2);
    expect(near.stderr).toContain('Did you mean lang?');
  });

  it('set, get, list, unset round trip with validation', async () => {
    const home = isolatedHome();
    const env = { HOME: home };
    expect((await runInProcess(['config', 'set', 'lang', 'de-DE'], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'set', 'base-url', `${server.url}/`], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'set', 'retries', '5'], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'get', 'lang'], { env })).stdout).toBe('de-DE\n');
    expect((await runInProcess(['config', 'get', 'base-url'], { env })).stdout).toBe(`${server.url}\n`);
    const path = (await runInProcess(['config', 'path'], { env })).stdout.trim();
    expect(statSync(path).mode & 0o777).toBe(0o600);

    const list = JSON.parse((await runInProcess(['config', 'list', '--json'], { env })).stdout);
    expect(list).toMatchObject({
      'base-url': { value: server.url, source: 'config' },
      lang: { value: 'de-DE', source: 'config' },
      retries: { value: 5, source: 'config' },
      timeout: { value: 30000, source: 'default' },
      'api-key': { value: null, source: 'default' },
    });

    // stored base-url and lang are used
    const before = server.requests.length;
    const r = await runInProcess(['ids', '--limit', '1', '--format', 'jsonl'], { env: { ...env, EXERCISES_API_KEY: PREMIUM_KEY } });
    expect(r.code).toBe(0);
    expect(new URLSearchParams(server.requests[before]!.query).get('lang')).toBe('de-DE');
    // the environment beats the stored value
    await runInProcess(['ids', '--limit', '1'], { env: { ...env, EXERCISES_API_KEY: PREMIUM_KEY, EXERCISES_LANG: 'es-ES' } });
    expect(new URLSearchParams(server.requests.at(-1)!.query).get('lang')).toBe('es-ES');

    expect((await runInProcess(['config', 'unset', 'lang'], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'get', 'lang'], { env })).stdout).toBe('en-GB\n'); // the default in force
  });

  it('refuses unknown keys, bad values and setting the api key', async () => {
    const env = { HOME: isolatedHome() };
    const unknown = await runInProcess(['config', 'set', 'colour', 'red'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('base-url');
    expect((await runInProcess(['config', 'set', 'base-url', 'nope'], { env })).code).toBe(2);
    for (const bad of ['ftp://files.example.com', 'https://user:secret@api.example.com']) {
      const r = await runInProcess(['config', 'set', 'base-url', bad], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/The base URL/);
      expect(r.stderr).not.toContain('secret');
    }
    // stored as every request would use it: no query or fragment, no trailing slash
    expect((await runInProcess(['config', 'set', 'base-url', ' https://api.example.com/v1/?debug=1#top '], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'get', 'base-url'], { env })).stdout).toBe('https://api.example.com/v1\n');
    const timeout = await runInProcess(['config', 'set', 'timeout', '-1'], { env });
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toMatch(/timeout must be a duration such as 5s, 90m, 24h or a number of milliseconds, between 1ms and 1h/);
    const lang = await runInProcess(['config', 'set', 'lang', 'de DE'], { env });
    expect(lang.code).toBe(2);
    expect(lang.stderr).toMatch(/lang must be a language tag such as en-GB/);
    const key = await runInProcess(['config', 'set', 'api-key', 'x'], { env });
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('auth login');
  });

  it('holds a hand-edited stored timeout or retries to the bounds config set uses', async () => {
    const home = isolatedHome();
    mkdirSync(join(home, '.config', 'exercises'), { recursive: true });
    writeFileSync(join(home, '.config', 'exercises', 'config.json'), JSON.stringify({ timeout: 99_999_999_999 }));
    const r = await runInProcess(['--sandbox', 'ids', '--limit', '1'], { env: { HOME: home } });
    expect(r.code).toBe(2);
    // The same parser as `config set` and the flag, with a hint to fix the file.
    expect(r.stderr).toMatch(/stored timeout must be a duration such as 5s, 90m, 24h or a number of milliseconds, between 1ms and 1h/);
    expect(r.stderr).toMatch(/config unset timeout/);
    expect(r.stderr).not.toMatch(/TimeoutOverflowWarning/);
    // a flag still overrides it
    expect((await runInProcess(['--sandbox', '--timeout', '5000', 'ids', '--limit', '1'], { env: { HOME: home } })).code).toBe(0);
    writeFileSync(join(home, '.config', 'exercises', 'config.json'), JSON.stringify({ retries: 'many' }));
    expect((await runInProcess(['--sandbox', 'ids', '--limit', '1'], { env: { HOME: home } })).code).toBe(2);
  });

  it('config set base-url follows the request rule: plain http only to this machine or with --allow-insecure', async () => {
    const env = { HOME: isolatedHome() };
    const refused = await runInProcess(['config', 'set', 'base-url', 'http://api.example.com'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Refusing plain http:\/\/ to api\.example\.com/);
    expect((await runInProcess(['config', 'get', 'base-url'], { env })).stdout).not.toContain('api.example.com');
    expect((await runInProcess(['--allow-insecure', 'config', 'set', 'base-url', 'http://api.example.com'], { env })).code).toBe(0);
    expect((await runInProcess(['config', 'set', 'base-url', 'http://127.0.0.1:9'], { env })).code).toBe(0);
  });

  it('config list shows each value in force and where it comes from, at any width', async () => {
    const env = { HOME: isolatedHome(), EXERCISES_LANG: 'fr-FR' };
    expect((await runInProcess(['config', 'set', 'retries', '5'], { env })).code).toBe(0);
    for (const columns of [40, 120]) {
      const r = await runInProcess(['--timeout', '5000', 'config', 'list'], { env, stdoutIsTTY: true, columns });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^lang +fr-FR +env \(EXERCISES_LANG\)$/m);
      expect(r.stdout).toMatch(/^timeout +5s +flag \(--timeout\)$/m);
      expect(r.stdout).toMatch(/^retries +5 +config$/m);
      expect(r.stdout).toMatch(/^base-url +https:\/\/\S+ +default$/m);
    }
    const tsv = await runInProcess(['config', 'list'], { env });
    expect(tsv.stdout).toContain('lang\tfr-FR\tenv\n');
  });

  it('reports a corrupt config file plainly', async () => {
    const home = isolatedHome();
    mkdirSync(join(home, '.config', 'exercises'), { recursive: true });
    writeFileSync(join(home, '.config', 'exercises', 'config.json'), '{not json');
    const r = await runInProcess(['config', 'list'], { env: { HOME: home } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
  });
});

describe('--sandbox', () => {
  it('query --muscle CHEST works with no key and no configuration', async () => {
    const r = await runInProcess(['--sandbox', 'query', '--muscle', 'CHEST', '--format', 'jsonl']);
    expect(r.code).toBe(0);
    expect(jsonlIds(r.stdout).sort()).toEqual(sortedIds(CATALOGUE.filter((e) => e.primaryMuscle?.includes('CHEST'))));
  });
});
