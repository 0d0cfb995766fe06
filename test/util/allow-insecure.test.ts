/**
 * Plain http to a host you trust, stored once (issue 29): the `allow-insecure` setting
 * (`config set allow-insecure true`, EXERCISES_ALLOW_INSECURE=1, --allow-insecure) lets every
 * command reach a LAN proxy over plain http, with one warning naming what allowed it; unset,
 * the refusal stands. The LAN proxy is undici's MockAgent under a reserved name: nothing is
 * resolved or connected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpMock, httpmock } from '../helpers/httpmock.js';
import { isolatedHome } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { PLANK, page } from '../commands/support.js';

const LAN = 'http://proxy.example.lan:8787';
const KEY = 'alice-3f9c2e0123';

let mock: HttpMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** `exercises ids --limit 1` against the LAN proxy, with the stored settings of `home` and `env` over them. */
async function idsFromLan(home: string, env: Record<string, string> = {}, flags: string[] = []) {
  mock = httpmock(LAN);
  mock.json((p) => p.startsWith('/exercise/exerciseIds'), page([PLANK]), { times: Infinity });
  const r = await runInProcess([...flags, 'ids', '--limit', '1'], {
    env: { HOME: home, EXERCISES_BASE_URL: LAN, EXERCISES_API_KEY: KEY, ...env },
    dispatcher: mock.agent,
  });
  return { ...r, requests: mock.requests() };
}

describe('allow-insecure', () => {
  it('unset, plain http to a LAN host is refused before any request', async () => {
    const r = await idsFromLan(isolatedHome());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Refusing plain http:// to proxy.example.lan:8787');
    expect(r.requests).toEqual([]);
  });

  it('stored once, lets every later command through, with one warning naming the setting', async () => {
    const home = isolatedHome();
    const set = await runInProcess(['config', 'set', 'allow-insecure', 'true'], { env: { HOME: home } });
    expect(set.code, set.stderr).toBe(0);
    const first = await idsFromLan(home);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(PLANK.id);
    expect(first.requests).toEqual(['/exercise/exerciseIds?limit=1']);
    expect(first.stderr.match(/warning: plain http:\/\/ to proxy\.example\.lan:8787/g)).toHaveLength(1);
    expect(first.stderr).toContain('allowed by the stored allow-insecure setting');
    // The next command is let through too (asked anew); a cache hit sends nothing, so it warns of nothing.
    const again = await idsFromLan(home, {}, ['--refresh']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.requests).toEqual(['/exercise/exerciseIds?limit=1']);
    expect(again.stderr).toContain('allowed by the stored allow-insecure setting');
    const hit = await idsFromLan(home);
    expect(hit.code, hit.stderr).toBe(0);
    expect(hit.requests).toEqual([]);
    expect(hit.stderr).toBe('');
    // -q keeps stderr quiet; unset, the refusal is back.
    const quiet = await idsFromLan(home, {}, ['-q', '--refresh']);
    expect(quiet.requests).toHaveLength(1);
    expect(quiet.stderr).toBe('');
    expect((await runInProcess(['config', 'unset', 'allow-insecure'], { env: { HOME: home } })).code).toBe(0);
    expect((await idsFromLan(home, {}, ['--refresh'])).code).toBe(2);
  });

  it('EXERCISES_ALLOW_INSECURE=1 and the flag allow it too, each named in the warning', async () => {
    const byEnv = await idsFromLan(isolatedHome(), { EXERCISES_ALLOW_INSECURE: '1' });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(byEnv.stderr).toContain('allowed by EXERCISES_ALLOW_INSECURE');
    const byFlag = await idsFromLan(isolatedHome(), {}, ['--allow-insecure']);
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(byFlag.stderr).toContain('allowed by --allow-insecure');
    // The variable says no over a stored yes.
    const home = isolatedHome();
    await runInProcess(['config', 'set', 'allow-insecure', 'yes'], { env: { HOME: home } });
    expect((await idsFromLan(home, { EXERCISES_ALLOW_INSECURE: '0' }, ['--refresh'])).code).toBe(2);
  });

  it('refuses a value that is not on or off, from config set and the variable', async () => {
    const set = await runInProcess(['config', 'set', 'allow-insecure', 'maybe'], { env: { HOME: isolatedHome() } });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('allow-insecure must be true or false');
    const env = await idsFromLan(isolatedHome(), { EXERCISES_ALLOW_INSECURE: 'maybe' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('EXERCISES_ALLOW_INSECURE must be true or false');
    expect(env.requests).toEqual([]);
  });

  it('config set base-url to a LAN host follows the setting, and says how to keep a choice made by the flag', async () => {
    const home = isolatedHome();
    const refused = await runInProcess(['config', 'set', 'base-url', LAN], { env: { HOME: home } });
    expect(refused.code).toBe(2);
    const byFlag = await runInProcess(['--allow-insecure', 'config', 'set', 'base-url', LAN], { env: { HOME: home } });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(byFlag.stderr).toContain('`exercises config set allow-insecure true`');
    const other = isolatedHome();
    await runInProcess(['config', 'set', 'allow-insecure', 'true'], { env: { HOME: other } });
    const stored = await runInProcess(['config', 'set', 'base-url', LAN], { env: { HOME: other } });
    expect(stored.code, stored.stderr).toBe(0);
    expect(stored.stderr).toBe('');
    const list = JSON.parse((await runInProcess(['config', 'list', '--json'], { env: { HOME: other } })).stdout);
    expect(list['allow-insecure']).toEqual({ value: true, source: 'config' });
  });
});
