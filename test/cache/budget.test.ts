/**
 * The request ledger and the budget in use, against the project's server: every request is
 * counted, the budget stops a command before the request that would pass it (exit 5) and
 * bulk listings keep what they printed; `quota`, `cache info` and `cache clear`.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function home(): string {
  return tempDir('exercises-quota-');
}

function run(homeDir: string, args: string[], env: Record<string, string> = {}) {
  return runInProcess(args, { env: { HOME: homeDir, EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: PREMIUM_KEY, ...env } });
}

async function quota(homeDir: string, args: string[] = [], env: Record<string, string> = {}) {
  const r = await run(homeDir, [...args, 'quota', '--json'], env);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { month: string; requests: number; budget: number | null; remaining: number | null };
}

describe('the request ledger', () => {
  it('counts every request sent, and nothing for a cache hit', async () => {
    const h = home();
    expect(await quota(h)).toMatchObject({ requests: 0, budget: null, remaining: null });
    const before = server.requests.length;
    await run(h, ['ids', '--all', '--limit', '10']);
    await run(h, ['show', 'Push_Up']);
    await run(h, ['show', 'Push_Up']);
    const sent = server.requests.length - before;
    const usage = await quota(h);
    expect(usage.requests).toBe(sent);
    expect(usage.month).toBe(new Date().toISOString().slice(0, 7));
  });

  it('keeps connections apart: another key counts on its own', async () => {
    const h = home();
    await run(h, ['show', 'Push_Up']);
    expect((await quota(h)).requests).toBe(1);
    expect((await quota(h, [], { EXERCISES_API_KEY: 'sandbox-free' })).requests).toBe(0);
  });
});

describe('--sandbox', () => {
  it('counts under one name for every run (its port changes) and caches nothing', async () => {
    const h = home();
    const env = { HOME: h, EXERCISES_BASE_URL: undefined, EXERCISES_API_KEY: undefined };
    for (let i = 0; i < 2; i++) expect((await runInProcess(['--sandbox', 'show', 'Push_Up'], { env })).code).toBe(0);
    const r = await runInProcess(['--sandbox', 'quota'], { env });
    expect(r.stdout).toMatch(/^2 requests in \d{4}-\d{2} to the --sandbox server/);
    expect(JSON.parse((await runInProcess(['cache', 'info', '--json'], { env })).stdout).entries).toBe(0);
  });

  it('is never stopped by a budget, and quota neither applies nor suggests one for it', async () => {
    const h = home();
    const env = { HOME: h, EXERCISES_BASE_URL: undefined, EXERCISES_API_KEY: undefined, EXERCISES_BUDGET: '1' };
    for (let i = 0; i < 3; i++) expect((await runInProcess(['--sandbox', 'show', 'Push_Up'], { env })).code).toBe(0);
    const json = JSON.parse((await runInProcess(['--sandbox', 'quota', '--json'], { env })).stdout);
    expect(json).toMatchObject({ requests: 3, budget: null, remaining: null });
    const text = await runInProcess(['--sandbox', 'quota'], { env });
    expect(text.stdout).toMatch(/^3 requests in \d{4}-\d{2} to the --sandbox server, no budget set/);
    expect(text.stdout).not.toContain('Set a budget');
  });
});

describe('the budget', () => {
  it('stops ids --all exactly at --budget 3: three requests, the three pages printed, exit 5', async () => {
    const h = home();
    const before = server.requests.length;
    const r = await run(h, ['--budget', '3', 'ids', '--all', '--limit', '5', '--format', 'jsonl']);
    expect(server.requests.length - before).toBe(3);
    expect(r.code).toBe(5);
    expect(r.stdout.trim().split('\n')).toHaveLength(15);
    expect(r.stderr).toMatch(/budget/i);
    expect(r.stderr).toContain('Stopped at the budget after 3 pages');
    expect(await quota(h, ['--budget', '3'])).toMatchObject({ requests: 3, budget: 3, remaining: 0 });
    // A rerun with more budget continues: the three pages come from the cache.
    const more = server.requests.length;
    const again = await run(h, ['--budget', '100', 'ids', '--all', '--limit', '5', '--format', 'jsonl']);
    expect(again.code, again.stderr).toBe(0);
    const total = again.stdout.trim().split('\n').length;
    expect(server.requests.length - more).toBe(Math.ceil((total + 1) / 5) - 3);
  });

  it('stops download at the budget keeping the files it finished; a rerun fetches only the rest', async () => {
    const h = home();
    const dir = join(h, 'media');
    const before = server.requests.length;
    const r = await run(h, ['--budget', '4', 'download', '--muscle', 'chest', '--dir', dir, '--quiet']);
    expect(r.code).toBe(5);
    expect(server.requests.length - before).toBe(4);
    const kept = Number(/with (\d+) of (\d+) files in place/.exec(r.stderr)?.[1]);
    const total = Number(/with (\d+) of (\d+) files in place/.exec(r.stderr)?.[2]);
    expect(kept).toBeGreaterThan(0);
    const again = server.requests.length;
    const rest = await run(h, ['download', '--muscle', 'chest', '--dir', dir, '--quiet']);
    expect(rest.code, rest.stderr).toBe(0);
    // The listing and records are cached: only the files not yet in place are asked for.
    expect(server.requests.length - again).toBe(total - kept);
  });

  it('refuses the first request when the budget is spent, sending nothing', async () => {
    const h = home();
    await run(h, ['show', 'Push_Up']);
    const before = server.requests.length;
    const r = await run(h, ['show', 'Pull_Up'], { EXERCISES_BUDGET: '1' });
    expect(r.code).toBe(5);
    expect(server.requests.length).toBe(before);
    expect(r.stderr).toContain('1 of 1 requests');
    // What is cached still answers.
    expect((await run(h, ['show', 'Push_Up'], { EXERCISES_BUDGET: '1' })).code).toBe(0);
  });

  it('takes the budget from config set budget, under EXERCISES_BUDGET and --budget', async () => {
    const h = home();
    expect((await run(h, ['config', 'set', 'budget', '7'])).code).toBe(0);
    expect((await quota(h)).budget).toBe(7);
    expect((await quota(h, [], { EXERCISES_BUDGET: '5' })).budget).toBe(5);
    expect((await quota(h, ['--budget', '4'], { EXERCISES_BUDGET: '5' })).budget).toBe(4);
    expect((await run(h, ['config', 'set', 'budget', 'lots'])).code).toBe(2);
  });

  it('checks cache-ttl values', async () => {
    const h = home();
    for (const ok of ['24h', '90m', '3600s', '3600', '7d']) expect((await run(h, ['config', 'set', 'cache-ttl', ok])).code).toBe(0);
    expect((await run(h, ['config', 'get', 'cache-ttl'])).stdout.trim()).toBe('7d');
    for (const bad of ['soon', '-1', '1w', '1.5h']) expect((await run(h, ['config', 'set', 'cache-ttl', bad])).code).toBe(2);
  });

  it('shows the one quota line in auth status', async () => {
    const h = home();
    await run(h, ['show', 'Push_Up']);
    const r = await run(h, ['auth', 'status', '--no-verify']);
    expect(r.stdout).toMatch(/^Requests: 1 request in \d{4}-\d{2} to http:\/\/127\.0\.0\.1:\d+, no budget set$/m);
  });
});

describe('cache info and cache clear', () => {
  it('reports the entries and bytes, and clearing empties it but keeps the count', async () => {
    const h = home();
    const empty = JSON.parse((await run(h, ['cache', 'info', '--json'])).stdout);
    expect(empty).toMatchObject({ entries: 0, bytes: 0 });
    expect(empty.path).toBe(join(h, '.cache', 'exercises', 'http'));
    await run(h, ['show', 'Push_Up']);
    const full = JSON.parse((await run(h, ['cache', 'info', '--json'])).stdout);
    expect(full.entries).toBeGreaterThan(0);
    expect(full.bytes).toBeGreaterThan(0);
    expect((await run(h, ['cache', 'clear'])).code).toBe(0);
    expect(JSON.parse((await run(h, ['cache', 'info', '--json'])).stdout)).toMatchObject({ entries: 0, bytes: 0 });
    expect((await quota(h)).requests).toBe(1);
    const before = server.requests.length;
    await run(h, ['show', 'Push_Up']);
    expect(server.requests.length - before).toBe(1);
  });
});
