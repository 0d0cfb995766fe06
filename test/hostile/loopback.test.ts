/**
 * Class 8, loopback by name: only literal loopback addresses and `localhost` (resolved to
 * loopback without asking DNS) may use plain http. `evil.localhost` is not loopback: refused
 * before any lookup or request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HostileServer, json, startHostileServer } from '../helpers/hostile-server.js';
import { runInProcess } from '../helpers/test-context.js';
import { KEY, timed } from './support.js';

let server: HostileServer;
beforeAll(async () => (server = await startHostileServer()));
afterAll(() => server.close());
afterEach(() => server.reset());

const show = (baseUrl: string) => runInProcess(['--base-url', baseUrl, 'show', 'A', '--format', 'json'], { env: { EXERCISES_API_KEY: KEY } });

describe('loopback by name', () => {
  for (const host of ['evil.localhost', 'localhost.evil.test', '127.0.0.1.nip.io']) {
    it(`http://${host} is not loopback: a usage error at once, nothing sent`, async () => {
      const { result: r, ms } = await timed(() => show(`http://${host}:${server.port}`));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/insecure|https|loopback/i);
      expect(ms).toBeLessThan(1_000);
      expect(server.requests).toHaveLength(0);
    });
  }

  for (const host of ['localhost', '127.0.0.1']) {
    it(`http://${host} is loopback: the request reaches the server on 127.0.0.1`, async () => {
      server.route(/^\/exercise\//, json({ id: 'A', name: 'A' }));
      const r = await show(`http://${host}:${server.port}`);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).id).toBe('A');
      expect(server.requests).toHaveLength(1);
    });
  }
});
