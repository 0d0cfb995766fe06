/**
 * What the person running a team proxy meets (issue 30): keys with labels, a log with the time
 * and the label (text or JSON), figures per client, keys replaced while it runs, an upstream
 * that refuses the proxy's key said plainly and never retried, and `quota` in words.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { LABEL_MAX_LENGTH, parseClientKey } from '../../src/proxy/client-keys.js';
import { parseKeyFile, parseKeysFile } from '../../src/proxy/secret-files.js';
import { isolatedHome } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { ALICE, GUEST, type ProxyFixture, startProxy } from './proxy-helpers.js';

let home: string;
/** The proxy of the running test, stopped after it. */
let f: ProxyFixture | undefined;
afterEach(async () => {
  await f?.stop();
  f = undefined;
});
beforeAll(() => {
  home = isolatedHome();
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('labelled keys', () => {
  test('KEY:PLAN:LABEL gives a label; KEY:PLAN still works; a key may hold colons', () => {
    const keys = parseKeysFile('alice-0123:premium:alice\nbob-4567:free\nci:with:colons:premium:ci nightly\n', 'k');
    expect(keys).toEqual({
      'alice-0123': { plan: 'premium', label: 'alice' },
      'bob-4567': { plan: 'free' },
      'ci:with:colons': { plan: 'premium', label: 'ci nightly' },
    });
  });

  test('a label too long, with a control character, or holding the key is refused by line number, never echoing the key', () => {
    const cases = [
      `secret-key-0123:premium:${'x'.repeat(LABEL_MAX_LENGTH + 1)}`,
      'secret-key-0123:premium:bad\u001b[31mlabel',
      'secret-key-0123:premium:bad"quote',
      'secret-key-0123:premium:me-secret-key-0123',
    ];
    for (const line of cases) {
      let message = '';
      try {
        parseKeysFile(`ok-key-0000:free\n${line}\n`, 'team-keys');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^team-keys:2: the label /);
      expect(message).not.toContain('secret-key-0123');
    }
    expect(parseClientKey(`k:free:${'x'.repeat(LABEL_MAX_LENGTH)}`)).toEqual({ key: 'k', client: { plan: 'free', label: 'x'.repeat(LABEL_MAX_LENGTH) } });
  });

  test('--upstream-key-file refuses a file that reads as a keys file, without quoting it', () => {
    expect(() => parseKeyFile('# team\nalice-secret-0123:premium:alice\n', 'upstream-key')).toThrow(/upstream-key reads as a keys file/);
    try {
      parseKeyFile('alice-secret-0123:premium\n', 'upstream-key');
    } catch (err) {
      expect((err as Error).message).not.toContain('alice-secret-0123');
    }
    expect(parseKeyFile('the-real-upstream-key\n', 'upstream-key')).toBe('the-real-upstream-key');
  });
});

describe('a proxy with labelled keys', () => {
  test('log lines begin with the UTC time and name the label (the hash without one); /-/status has figures per label', async () => {
    f = await startProxy({ keys: { [ALICE]: { plan: 'premium', label: 'alice' }, [GUEST]: { plan: 'free' } } });
    expect((await f.get('/exercise/Push_Up', ALICE)).status).toBe(200);
    expect((await f.get('/exercise/Push_Up', ALICE)).status).toBe(200);
    expect((await f.get('/exercise/Push_Up', GUEST)).status).toBe(200);
    expect(f.log[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z alice GET \/exercise\/Push_Up 200 miss \d+\.\dms \d+B$/);
    expect(f.log[1]).toMatch(/Z alice GET \/exercise\/Push_Up 200 hit /);
    expect(f.log[2]).toMatch(/Z [0-9a-f]{8} GET \/exercise\/Push_Up 200 hit /);
    const status = (await (await f.get('/-/status', ALICE)).json()) as {
      clients: Record<string, { requests: number; hits: number; misses: number; bytesServed: number }>;
    };
    expect(status.clients.alice).toMatchObject({ requests: 2, hits: 1, misses: 1 });
    expect(status.clients.alice!.bytesServed).toBeGreaterThan(100);
    const guest = Object.entries(status.clients).find(([name]) => name !== 'alice');
    expect(guest?.[0]).toMatch(/^[0-9a-f]{8}$/);
    expect(guest?.[1]).toMatchObject({ requests: 1, hits: 1, misses: 0 });
  });

  test('--log-format json: one object a line with time, client, method, path, status, outcome, ms, bytes', async () => {
    f = await startProxy({ keys: { [ALICE]: { plan: 'premium', label: 'Alice Smith' } }, logFormat: 'json' });
    await f.get('/exercise/Plank?api_key=' + ALICE, ALICE);
    await f.get('/exercise/Plank', 'not-a-key');
    const [ok, refused] = f.log.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(ok!)).toEqual(['time', 'client', 'method', 'path', 'status', 'outcome', 'ms', 'bytes']);
    expect(ok).toMatchObject({ client: 'Alice Smith', method: 'GET', path: '/exercise/Plank?api_key=***', status: 200, outcome: 'miss' });
    expect(Date.parse(ok!.time as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(ok!.bytes).toBeGreaterThan(100);
    expect(refused).toMatchObject({ client: '-', status: 401, outcome: null });
    expect(f.log.join('\n')).not.toContain(ALICE);
  });

  test('a label with a space is quoted in a text line, so the line still splits on spaces', async () => {
    f = await startProxy({ keys: { [ALICE]: { plan: 'premium', label: 'Alice Smith' } } });
    await f.get('/exercise/Plank', ALICE);
    expect(f.log[0]).toMatch(/Z "Alice Smith" GET \/exercise\/Plank 200 miss /);
  });

  test('setKeys: an added key works at once, a removed key gets 401 at its next request', async () => {
    f = await startProxy();
    expect((await f.get('/exercise/Plank', ALICE)).status).toBe(200);
    f.proxy.setKeys({ 'new-key-0123': { plan: 'premium', label: 'new' } });
    expect((await f.get('/exercise/Plank', ALICE)).status).toBe(401);
    expect((await f.get('/exercise/Plank', 'new-key-0123')).status).toBe(200);
    expect(f.log.at(-1)).toMatch(/Z new GET /);
  });
});

describe('an upstream refusing the proxy key', () => {
  test('one upstream request per client request; the CLI prints the sentence and does not retry; the proxy says it once a minute, naming the source', async () => {
    f = await startProxy({ upstreamKey: 'wrong-upstream-key-0123', keySource: 'EXERCISES_UPSTREAM_KEY' });
    const env = { EXERCISES_API_KEY: ALICE, HOME: home };
    const first = await runInProcess(['--base-url', f.proxy.url, 'show', 'Plank'], { env });
    expect(f.upstreamCount()).toBe(1);
    expect(first.code).toBe(6);
    expect(first.stderr).toMatch(
      /^Error: The upstream service refused the proxy's upstream key \(401\); whoever runs the proxy must replace it \(502 for GET \/exercise\/Plank\)\./,
    );
    expect(first.stderr).not.toMatch(/Try again later/);
    const second = await runInProcess(['--base-url', f.proxy.url, '--retries', '3', 'show', 'Push_Up'], { env });
    expect(second.code).toBe(6);
    expect(f.upstreamCount()).toBe(2);
    const said = f.warnings.filter((w) => w.includes("refused the proxy's upstream key"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('taken from EXERCISES_UPSTREAM_KEY');
    expect(said[0]).not.toContain('wrong-upstream-key-0123');
    expect(f.log.map((l) => l.split(' ')[4])).toEqual(['502', '502']);
  });
});

describe('quota through a proxy', () => {
  test("says the proxy's budget in words: used, limit, left, the day it starts again; no raw headers, no seconds, no budget advice", async () => {
    f = await startProxy({ budget: 10 });
    const quotaHome = isolatedHome();
    try {
      const env = { EXERCISES_API_KEY: ALICE, EXERCISES_BASE_URL: f.proxy.url, HOME: quotaHome };
      expect((await runInProcess(['show', 'Push_Up', '--json'], { env })).code).toBe(0);
      const quota = await runInProcess(['quota'], { env });
      expect(quota.code).toBe(0);
      const now = new Date();
      const month = now.toISOString().slice(0, 7);
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
      expect(quota.stdout).toContain(`The proxy's budget: 1 of 10 upstream requests used in ${month}, 9 left; it starts again on ${next} (as of `);
      // A port has at most 5 digits; an epoch or a count of seconds to next month has more.
      expect(quota.stdout).not.toMatch(/ratelimit|config set budget|\d{6,}| s\./i);
      const json = JSON.parse((await runInProcess(['quota', '--json'], { env })).stdout) as { proxy: Record<string, unknown> };
      expect(json.proxy).toMatchObject({ month, used: 1, limit: 10, remaining: 9, resetsOn: next });
    } finally {
      rmSync(quotaHome, { recursive: true, force: true });
    }
  });
});
