/**
 * `exercises auth`, `config`, `quota` and `cache`: run(options, ctx) in-process, against a fake
 * transport where a command asks the service, with a private HOME for what they store.
 */
import { describe, expect, it } from 'vitest';
import { run as auth } from '../../src/commands/auth.js';
import { run as cache } from '../../src/commands/cache.js';
import { run as config, setOptions } from '../../src/commands/config.js';
import { run as query } from '../../src/commands/query.js';
import { run as quota } from '../../src/commands/quota.js';
import { run as show, showOptions } from '../../src/commands/show.js';
import { pagingFromOptions } from '../../src/commands/shared/list-output.js';
import { isolatedHome } from '../helpers/temp.js';
import { runCommand } from '../helpers/test-context.js';
import { FAKE_BASE_URL, PLANK, fakeRun, page } from './support.js';

const NEW_KEY = 'new-key-ABCDEFGH12345678';

describe('auth run()', () => {
  it('login --with-key checks the key with one request, stores it masked in the message, and status then reads it', async () => {
    const HOME = isolatedHome();
    const t = fakeRun({ env: { HOME, EXERCISES_API_KEY: undefined }, input: `${NEW_KEY}\n` });
    t.http.json((p) => p.startsWith('/exercise/exerciseIds'), page([PLANK]));
    const r = await runCommand(auth, { action: 'login', withKey: true, verify: true }, t);
    expect(r.code, r.stderr).toBe(0);
    expect(t.http.requests()).toEqual(['/exercise/exerciseIds?limit=1']);
    expect(t.http.headersOf(0)['x-api-key']).toBe(NEW_KEY);
    expect(r.stderr).toMatch(/Stored the API key .* \(the service accepted it\)/);
    expect(r.stderr).not.toContain(NEW_KEY);

    const s = fakeRun({ env: { HOME, EXERCISES_API_KEY: undefined }, globals: { json: true } });
    const status = await runCommand(auth, { action: 'status', verify: false }, s);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ source: 'config', baseUrl: FAKE_BASE_URL });
    expect(status.stdout).not.toContain(NEW_KEY);
  });

  it('login with a key the service rejects (401): exit 3 and nothing stored', async () => {
    const HOME = isolatedHome();
    const t = fakeRun({ env: { HOME, EXERCISES_API_KEY: undefined }, input: `${NEW_KEY}\n` });
    t.http.error((p) => p.startsWith('/exercise/exerciseIds'), 401, 'UNAUTHORIZED', 'Unknown key.');
    const r = await runCommand(auth, { action: 'login', withKey: true, verify: true }, t);
    expect(r.code).toBe(3);
    const s = fakeRun({ env: { HOME, EXERCISES_API_KEY: undefined } });
    expect((await runCommand(auth, { action: 'status', verify: false }, s)).code).toBe(3); // still no key
  });

  it('login with an empty key is a usage error (exit 2), no request', async () => {
    const t = fakeRun({ env: { EXERCISES_API_KEY: undefined }, input: '\n' });
    const r = await runCommand(auth, { action: 'login', withKey: true, verify: true }, t);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The API key is empty.');
    expect(t.http.requests()).toEqual([]);
  });

  it('status --verify with a key the service refuses (403) says so and exits 3', async () => {
    const t = fakeRun();
    t.http.error((p) => p.startsWith('/exercise/exerciseIds'), 403, 'FORBIDDEN', 'Plan expired.');
    const r = await runCommand(auth, { action: 'status', verify: true }, t);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/Service: {2}rejects the key/);
    expect(r.stdout).toMatch(/from EXERCISES_API_KEY/);
  });

  it('logout with nothing stored says so', async () => {
    const t = fakeRun({ env: { EXERCISES_API_KEY: undefined } });
    const r = await runCommand(auth, { action: 'logout' }, t);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('No API key was stored.');
  });
});

describe('config run()', () => {
  it('set then get and list show the value and where it came from', async () => {
    const HOME = isolatedHome();
    const set = await runCommand(config, { action: 'set', key: 'lang', value: 'de-DE' }, fakeRun({ env: { HOME } }));
    expect(set.code, set.stderr).toBe(0);
    const get = await runCommand(config, { action: 'get', key: 'lang' }, fakeRun({ env: { HOME } }));
    expect(get.stdout.trim()).toBe('de-DE');
    const list = await runCommand(config, { action: 'list' }, fakeRun({ env: { HOME } }));
    expect(list.stdout).toMatch(/lang.*de-DE/);
  });

  it('an unknown key is a usage error (exit 2) listing the known ones', async () => {
    const r = await runCommand(config, { action: 'get', key: 'colour' }, fakeRun());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown config key "colour"/);
    expect(r.stderr).toMatch(/Known keys: .*lang/);
  });

  it('a bad value, or the key through `config set`, is a usage error (exit 2) while building the options', async () => {
    await expect(setOptions('retries', 'many')).rejects.toMatchObject({ exitCode: 2 });
    await expect(setOptions('api-key', 'k')).rejects.toThrow(/auth login/);
    await expect(setOptions('retries', '5')).resolves.toEqual({ action: 'set', key: 'retries', value: 5 });
  });

  it('path prints the config file under the private HOME', async () => {
    const HOME = isolatedHome();
    const r = await runCommand(config, { action: 'path' }, fakeRun({ env: { HOME } }));
    expect(r.code).toBe(0);
    expect(r.stdout.trim().startsWith(HOME)).toBe(true);
  });
});

describe('quota run()', () => {
  it('counts the requests this key sent to this origin and shows the last rate-limit headers', async () => {
    const HOME = isolatedHome();
    const t = fakeRun({ env: { HOME } });
    t.http.json('/exercise/query', page([PLANK]), { headers: { 'x-ratelimit-remaining': '41' } });
    expect((await runCommand(query, { filters: {}, paging: pagingFromOptions({}) }, t)).code).toBe(0);
    const r = await runCommand(quota, {}, fakeRun({ env: { HOME }, globals: { json: true } }));
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as { requests: number; budget: number | null; rateLimit?: { headers: Record<string, string> } };
    expect(shown.requests).toBe(1);
    expect(shown.budget).toBeNull();
    expect(shown.rateLimit?.headers).toMatchObject({ 'x-ratelimit-remaining': '41' });
  });

  it('with a budget reached, the next command stops before sending (exit 5)', async () => {
    const HOME = isolatedHome();
    const first = fakeRun({ env: { HOME }, globals: { budget: 1 } });
    first.http.json('/exercise/Plank', PLANK);
    expect((await runCommand(show, showOptions(['Plank']), first)).code).toBe(0);
    const second = fakeRun({ env: { HOME }, globals: { budget: 1, cache: false } });
    const r = await runCommand(show, showOptions(['Plank']), second);
    expect(r.code).toBe(5);
    expect(second.http.requests()).toEqual([]);
    const q = await runCommand(quota, {}, fakeRun({ env: { HOME }, globals: { budget: 1 } }));
    expect(q.stdout).toMatch(/1 request in .* budget 1, 0 left/);
  });
});

describe('cache run()', () => {
  it('info counts what a command cached; clear removes it, and the next show asks the service again', async () => {
    const HOME = isolatedHome();
    const t = fakeRun({ env: { HOME } });
    t.http.json('/exercise/Plank', PLANK);
    expect((await runCommand(show, showOptions(['Plank']), t)).code).toBe(0);
    const info = await runCommand(cache, { action: 'info' }, fakeRun({ env: { HOME }, globals: { json: true } }));
    expect((JSON.parse(info.stdout) as { entries: number }).entries).toBeGreaterThan(0);

    const hit = fakeRun({ env: { HOME } });
    expect((await runCommand(show, showOptions(['Plank']), hit)).code).toBe(0);
    expect(hit.http.requests()).toEqual([]); // answered from the cache

    const cleared = await runCommand(cache, { action: 'clear' }, fakeRun({ env: { HOME } }));
    expect(cleared.stderr).toMatch(/Removed \d+ cache entr/);
    const again = fakeRun({ env: { HOME } });
    again.http.json('/exercise/Plank', PLANK);
    expect((await runCommand(show, showOptions(['Plank']), again)).code).toBe(0);
    expect(again.http.requests()).toEqual(['/exercise/Plank']);
  });

  it('--offline with nothing cached is an error, and no request goes out', async () => {
    const t = fakeRun({ globals: { offline: true } });
    const r = await runCommand(show, showOptions(['Plank']), t);
    expect(r.code).not.toBe(0);
    expect(t.http.requests()).toEqual([]);
  });
});
