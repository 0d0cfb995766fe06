/**
 * SIGHUP to a running `serve --upstream` (a real child process, as an operator's `kill -HUP`):
 * the keys file is read again, an added key works, a removed one gets exit 3 from the CLI, a
 * broken file is refused with a log line while the keys in use stay, and the proxy keeps running.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

let upstream: CatalogueServer;
let dir: string;
let home: string;
beforeAll(async () => {
  upstream = await startServer();
  dir = tempDir('exercises-reload-');
  home = isolatedHome();
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** Resolves once `text()` matches `pattern` (polled: the child writes when it likes). */
async function until(text: () => string, pattern: RegExp, ms = 20_000): Promise<RegExpMatchArray> {
  const end = Date.now() + ms;
  for (;;) {
    const match = text().match(pattern);
    if (match) return match;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${pattern} in:\n${text()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('kill -HUP: an added key works, a removed key gets exit 3, a broken file is refused and the old keys stay; the proxy keeps running', async () => {
  const keysFile = join(dir, 'team-keys');
  const writeKeys = (text: string): void => {
    writeFileSync(keysFile, text);
    chmodSync(keysFile, 0o600);
  };
  writeKeys('old-key-0123:premium:old\n');
  let child: ChildProcess | undefined;
  let out = '';
  let err = '';
  const done = runCli(['serve', '--upstream', upstream.url, '--keys-file', keysFile, '--port', '0'], {
    env: { HOME: home, EXERCISES_UPSTREAM_KEY: PREMIUM_KEY },
    timeoutMs: 90_000,
    onSpawn(c) {
      child = c;
      c.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
      c.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    },
  });
  try {
    const url = (await until(() => out, /Listening on (\S+)\n/))[1]!;
    const cli = (key: string) => runInProcess(['--base-url', url, '--no-cache', 'show', 'Plank', '--json'], { env: { EXERCISES_API_KEY: key, HOME: home } });

    expect((await cli('old-key-0123')).code).toBe(0);
    writeKeys('# bob joined, old left\nnew-key-4567:premium:bob\n');
    child!.kill('SIGHUP');
    await until(() => err, /proxy: reloaded 1 client key\.\n/);
    const removed = await cli('old-key-0123');
    expect(removed.code).toBe(3);
    expect(removed.stderr).toMatch(/rejected the API key \(401\)/);
    expect((await cli('new-key-4567')).code).toBe(0);
    expect(err).toMatch(/Z bob GET \/exercise\/Plank 200 /);

    writeKeys('new-key-4567:gold\n');
    child!.kill('SIGHUP');
    const refused = (await until(() => err, /proxy: reload refused.*\n/))[0];
    expect(refused).toMatch(/team-keys:1: expected KEY:PLAN/);
    expect(refused).not.toContain('new-key-4567');
    expect((await cli('new-key-4567')).code).toBe(0);
    expect(child!.exitCode).toBeNull();
  } finally {
    child?.kill('SIGTERM');
  }
  const result = await done;
  expect(result.code).toBe(0);
  expect(result.signal).toBeNull();
});
