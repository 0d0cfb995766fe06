/**
 * Class 3b, the whole command's deadline: a body dripped a byte at a time, headers that never
 * come, a 503 asking to come back in a minute. Each per-request rule lets such a server hold a
 * command for minutes (4 attempts × 3 × --timeout); the command's deadline (`--deadline`,
 * EXERCISES_DEADLINE, 60 s by default) bounds the whole, retries and their waits included,
 * and the message says which limit ended it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Attack, type HostileServer, drip, json, retryAfter, startHostileServer } from '../helpers/hostile-server.js';
import { type Settings, resolveSettings } from '../../src/config/settings.js';
import { DEFAULT_GLOBALS } from '../../src/context.js';
import { cli, tempDir, timed } from './support.js';

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
  // The first in-process run loads the CLI's modules: done here, so the times below are the deadline's.
  server.route(/^\/exercise\//, json({ id: 'Warm', name: 'Warm' }));
  await cli(server, ['--no-cache', 'show', 'Warm']);
  server.reset();
});
afterAll(() => server.close());
afterEach(() => server.reset());

/** Accepts the request and never answers: no status line, no headers. */
const silent: Attack = () => {};

describe('the whole command deadline', () => {
  it('a dripping body: --deadline 1 ends show within ~1 s with the default --timeout and retries, naming the deadline', async () => {
    server.route(/^\/exercise\//, drip(100));
    const { result: r, ms } = await timed(() => cli(server, ['--no-cache', '--deadline', '1', 'show', 'Slow']));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/deadline of 1 s \(--deadline\) ran out/);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(4_000); // without it: 4 attempts × 90 s
    expect(server.count(/^\/exercise\//)).toBe(1); // no retry once the command is out of time
  });

  it('headers that never come: EXERCISES_DEADLINE=1 ends it the same way', async () => {
    server.route(/^\/exercise\//, silent);
    const { result: r, ms } = await timed(() => cli(server, ['--no-cache', 'show', 'Silent'], { env: { EXERCISES_DEADLINE: '1' } }));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/deadline of 1 s \(EXERCISES_DEADLINE\) ran out/);
    expect(ms).toBeLessThan(4_000);
  });

  it('a 503 asking to wait 20 s (under the Retry-After cap): the command stops at once rather than wait past its deadline, saying why', async () => {
    server.route(/^\/exercise\//, retryAfter(20, 503));
    const { result: r, ms } = await timed(() => cli(server, ['--no-cache', '--deadline', '5', 'show', 'Busy']));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/deadline of 5 s \(--deadline\) ran out before the next attempt: the service asked to wait 20 s \(Retry-After\)/);
    expect(ms).toBeLessThan(3_000);
    expect(server.count(/^\/exercise\//)).toBe(1);
  });

  it('retries and their waits count inside it: 503 with Retry-After 1, --retries 10, --deadline 2', async () => {
    server.route(/^\/exercise\//, retryAfter(1, 503));
    const { result: r, ms } = await timed(() => cli(server, ['--no-cache', '--deadline', '2', '--retries', '10', 'show', 'Busy']));
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/deadline of 2 s/);
    expect(ms).toBeLessThan(4_500);
    expect(server.count(/^\/exercise\//)).toBeLessThanOrEqual(3);
  });

  it('several ids side by side share one deadline: a whole `show a b c d` against a drip ends within it', async () => {
    server.route(/^\/exercise\//, drip(100));
    const { result: r, ms } = await timed(() => cli(server, ['--no-cache', '--deadline', '1', 'show', 'A', 'B', 'C', 'D']));
    expect(r.code).toBe(6);
    expect(ms).toBeLessThan(4_000);
  });

  it('--deadline 0: none, the per-request rule ends it and says so', async () => {
    server.route(/^\/exercise\//, drip(100));
    const r = await cli(server, ['--no-cache', '--deadline', '0', '--timeout', '300', '--retries', '0', 'show', 'Slow']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/at most 3 × --timeout, 900 ms/);
    expect(r.stderr).not.toMatch(/command's deadline/);
  });

  it('a quick answer is untouched by a short deadline', async () => {
    server.route(/^\/exercise\//, json({ id: 'Quick', name: 'Quick' }));
    const r = await cli(server, ['--no-cache', '--deadline', '1', 'show', 'Quick', '--json']);
    expect(r.code, r.stderr).toBe(0);
  });

  it('is 60 s by default, from a setting or the environment otherwise; 0 is none; a bad value is a usage error', () => {
    const home = tempDir();
    const env = { HOME: home, XDG_CONFIG_HOME: `${home}/.config` };
    const deadline = (settings: Settings): unknown => ({ ms: settings.deadline, source: settings.from.deadline.source });
    expect(deadline(resolveSettings({ env, globals: { ...DEFAULT_GLOBALS } }))).toEqual({ ms: 60_000, source: 'default' });
    expect(deadline(resolveSettings({ env: { ...env, EXERCISES_DEADLINE: '2m' }, globals: { ...DEFAULT_GLOBALS } }))).toEqual({ ms: 120_000, source: 'env' });
    expect(deadline(resolveSettings({ env, globals: { ...DEFAULT_GLOBALS, deadline: 0 } }))).toEqual({ ms: 0, source: 'flag' });
    expect(() => resolveSettings({ env: { ...env, EXERCISES_DEADLINE: 'soon' }, globals: { ...DEFAULT_GLOBALS } })).toThrow(/EXERCISES_DEADLINE must be/);
  });
});
