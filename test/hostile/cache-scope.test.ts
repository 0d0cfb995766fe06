/**
 * Class 12, the cache shared across services: two catalogues under one origin (`/a` and `/b`)
 * with different answers for the same id, another key, another language. An answer cached for
 * one is never served for another: cache keys hold the whole base URL, the key hash, the plan
 * (through the key) and the language.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HostileServer, json, listPage, startHostileServer } from '../helpers/hostile-server.js';
import { runInProcess } from '../helpers/test-context.js';
import { KEY, tempDir } from './support.js';

let server: HostileServer;
let home: string;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
beforeEach(() => {
  home = tempDir('hostile-scope-');
  for (const prefix of ['a', 'b']) {
    const record = { id: 'x1', name: `From ${prefix.toUpperCase()}`, primaryMuscles: ['CHEST'] };
    server.route(new RegExp(`^/${prefix}/exercise/x1`), json(record));
    server.route(new RegExp(`^/${prefix}/exercise/query`), listPage([record], { total: 1, next: null }));
  }
});
afterEach(() => {
  server.reset();
  rmSync(home, { recursive: true, force: true });
});

const run = (base: string, args: string[], env: Record<string, string> = {}) =>
  runInProcess(['--base-url', `${server.url}${base}`, ...args], { env: { HOME: home, EXERCISES_API_KEY: KEY, ...env } });
const nameOf = (stdout: string): string => (JSON.parse(stdout) as { name: string }).name;

describe('cache keys hold the whole base URL', () => {
  it('show x1 under /a, then under /b: each answered by its own service, two requests', async () => {
    const a = await run('/a', ['show', 'x1', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(nameOf(a.stdout)).toBe('From A');
    const b = await run('/b', ['show', 'x1', '--json']);
    expect(b.code, b.stderr).toBe(0);
    expect(nameOf(b.stdout)).toBe('From B');
    expect(server.count(/\/exercise\/x1/)).toBe(2);
    // Each is cached in its own right: asked again, no request.
    expect(nameOf((await run('/a/', ['show', 'x1', '--json'])).stdout)).toBe('From A');
    expect(server.count(/\/exercise\/x1/)).toBe(2);
  });

  it('a full record cached from a listing under /a never answers show under /b', async () => {
    expect((await run('/a', ['query', '--muscle', 'chest', '--json'])).code).toBe(0);
    const b = await run('/b', ['show', 'x1', '--json']);
    expect(nameOf(b.stdout)).toBe('From B');
    expect(server.count(/^\/b\/exercise\/x1/)).toBe(1);
  });

  it("--offline under /b does not find /a's answer", async () => {
    expect((await run('/a', ['show', 'x1', '--json'])).code).toBe(0);
    const b = await run('/b', ['--offline', 'show', 'x1', '--json']);
    expect(b.code).toBe(6);
    expect(b.stdout).toBe('');
  });

  it('another key (another plan) and another language are asked anew', async () => {
    expect((await run('/a', ['show', 'x1', '--json'])).code).toBe(0);
    expect((await run('/a', ['show', 'x1', '--json'], { EXERCISES_API_KEY: 'another-plan-key-0001' })).code).toBe(0);
    expect((await run('/a', ['--lang', 'de-DE', 'show', 'x1', '--json'])).code).toBe(0);
    expect(server.count(/\/exercise\/x1/)).toBe(3);
  });
});
