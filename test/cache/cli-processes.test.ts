/**
 * Two CLI processes (the built bin/exercises.js) at once over one cache and one ledger: every
 * request is counted, each answer is whole afterwards, and a shared budget is never passed.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function envFor(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    EXERCISES_BASE_URL: server.url,
    EXERCISES_API_KEY: PREMIUM_KEY,
    ...extra,
  };
}

describe('two processes at once', () => {
  it('count every request in the ledger and leave the cache whole', async () => {
    const home = tempDir('exercises-two-');
    const env = envFor(home);
    const before = server.requests.length;
    const args = [
      ['ids', '--all', '--limit', '4', '--format', 'jsonl'],
      ['query', '--muscle', 'chest', '--limit', '2', '--all', '--format', 'jsonl'],
    ];
    const results = await Promise.all([...args, ...args].map((a) => runCli(a, { env })));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const sent = server.requests.length - before;
    const quota = JSON.parse((await runInProcess(['quota', '--json'], { env })).stdout);
    expect(quota.requests).toBe(sent);
    // The store is whole: the same listings again come from it, byte for byte, at no cost.
    const again = server.requests.length;
    for (const [i, a] of args.entries()) {
      const r = await runCli(a, { env });
      expect(r.stdout).toBe(results[i]!.stdout);
    }
    expect(server.requests.length).toBe(again);
  });

  it('never pass a shared budget', async () => {
    const home = tempDir('exercises-two-');
    const env = envFor(home, { EXERCISES_BUDGET: '5' });
    const before = server.requests.length;
    const results = await Promise.all([runCli(['ids', '--all', '--limit', '3'], { env }), runCli(['ids', '--all', '--limit', '2'], { env })]);
    expect(server.requests.length - before).toBe(5);
    expect(results.map((r) => r.code)).toEqual([5, 5]);
  });
});
