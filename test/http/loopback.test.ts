/**
 * Loopback by name (src/util/url-policy.ts, src/http/attempt.ts loopbackLookup): only literal loopback
 * addresses and the exact name `localhost` are trusted with plain http, and `localhost`
 * reaches loopback without asking DNS.
 */
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { assertAllowedUrl, isLoopbackHost } from '../../src/util/url-policy.js';
import { loopbackLookup } from '../../src/http/attempt.js';
import { Transport } from '../../src/http/transport.js';
import { UsageError } from '../../src/errors.js';
import { closeAll, json, serve, transport } from './local-server.js';

/** Replaces dns.lookup (for require and import alike) with one that records the names asked, answering 127.0.0.1. */
function recordDns(): { asked: string[]; restore: () => void } {
  const original = dns.lookup;
  const asked: string[] = [];
  const fake = ((hostname: string, options: unknown, callback?: unknown) => {
    asked.push(hostname);
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    process.nextTick(() => (all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)));
  }) as typeof dns.lookup;
  dns.lookup = fake;
  syncBuiltinESMExports();
  return {
    asked,
    restore: () => {
      dns.lookup = original;
      syncBuiltinESMExports();
    },
  };
}

afterEach(closeAll);

describe('which hosts are loopback', () => {
  it('literal 127.0.0.0/8, ::1 and the exact name localhost (with or without the root dot); nothing under .localhost', () => {
    for (const host of ['localhost', 'LocalHost', 'localhost.', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      'evil.localhost',
      'evil.localhost.',
      'a.b.localhost',
      'localhost..',
      'localhost.example.com',
      '128.0.0.1',
      '10.0.0.1',
      '[::2]',
      'example.com',
      '',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('refuses plain http to evil.localhost as insecure, before any request', () => {
    expect(() => assertAllowedUrl(new URL('http://evil.localhost:8787/'))).toThrow(UsageError);
    expect(() => new Transport({ baseUrl: 'http://evil.localhost:8787', settings: { timeout: 1000, retries: 0 } })).toThrow(
      /Refusing plain http:\/\/ to evil\.localhost:8787/,
    );
    expect(() => new Transport({ baseUrl: 'https://evil.localhost:8787', settings: { timeout: 1000, retries: 0 } })).not.toThrow();
  });

  it('refuses a media URL to evil.localhost over http too', async () => {
    const { url, seen } = await serve((_req, res) => res.end('x'));
    const t = transport({ baseUrl: url });
    await expect(t.dispatchStream('http://evil.localhost:1/images/a/premium/b.png')).rejects.toBeInstanceOf(UsageError);
    expect(seen).toHaveLength(0);
  });
});

describe('localhost without DNS', () => {
  it('loopbackLookup answers localhost with the loopback addresses itself', async () => {
    const dnsSpy = recordDns();
    try {
      const one = await new Promise<unknown[]>((resolve, reject) =>
        loopbackLookup('localhost', {}, (err, address, family) => (err ? reject(err) : resolve([address, family]))),
      );
      expect(one).toEqual(['127.0.0.1', 4]);
      const all = await new Promise<unknown>((resolve, reject) =>
        loopbackLookup('LOCALHOST', { all: true }, (err, address) => (err ? reject(err) : resolve(address))),
      );
      expect(all).toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
      const v6 = await new Promise<unknown[]>((resolve, reject) =>
        loopbackLookup('localhost', { family: 6 }, (err, address, family) => (err ? reject(err) : resolve([address, family]))),
      );
      expect(v6).toEqual(['::1', 6]);
      const rooted = await new Promise<unknown[]>((resolve, reject) =>
        loopbackLookup('localhost.', {}, (err, address, family) => (err ? reject(err) : resolve([address, family]))),
      );
      expect(rooted).toEqual(['127.0.0.1', 4]);
      expect(dnsSpy.asked).toEqual([]);
      // Any other name is DNS's to answer.
      await new Promise((resolve) => loopbackLookup('evil.localhost', {}, resolve));
      expect(dnsSpy.asked).toEqual(['evil.localhost']);
    } finally {
      dnsSpy.restore();
    }
  });

  it('a transport to http://localhost connects to loopback and never asks DNS', async () => {
    const { port, seen } = await serve((_req, res) => json(res, 200, { ok: true }));
    const dnsSpy = recordDns();
    try {
      await expect(transport({ baseUrl: `http://localhost:${port}`, apiKey: 'k' }).getJson('/x')).resolves.toEqual({ ok: true });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.headers['x-api-key']).toBe('k');
      // localhost. (the root's dot) is the same name.
      await expect(transport({ baseUrl: `http://localhost.:${port}` }).getJson('/x')).resolves.toEqual({ ok: true });
      expect(dnsSpy.asked).toEqual([]);
      // The same check sees a name that does go to DNS (the fake above answers it; allowed here only with allowInsecure).
      await expect(transport({ baseUrl: `http://catalogue.test:${port}`, settings: { allowInsecure: true } }).getJson('/x')).resolves.toEqual({ ok: true });
      expect(dnsSpy.asked).toEqual(['catalogue.test']);
    } finally {
      dnsSpy.restore();
    }
  });
});
