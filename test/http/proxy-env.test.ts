/**
 * Proxies from the environment (src/http/proxy-env.ts, attempt.ts): which variable applies to
 * which URL and what NO_PROXY exempts, by curl's rules; then whole requests through a forward
 * proxy of the test's own on 127.0.0.1 that records the CONNECT requests it saw, so the API key
 * can be seen to reach the service only.
 */
import { type IncomingMessage, createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/http/proxy-env.js';
import { UsageError } from '../../src/errors.js';
import { closeAll, json, serve, transport } from './local-server.js';
import { runInProcess } from '../helpers/test-context.js';
import { runCli } from '../helpers/run-cli.js';
import { startServer, FREE_KEY } from '../helpers/server.js';
import { Upstream } from '../../src/proxy/upstream.js';
import { tempDirsPerTest } from '../helpers/temp.js';

interface ForwardProxy {
  url: string;
  port: number;
  /** The CONNECT requests it took: the target and the headers the client sent the proxy. */
  connects: Array<{ target: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/** A CONNECT-only forward proxy on 127.0.0.1: it resolves `rewrite` names itself (no DNS), then pipes bytes. */
async function startForwardProxy(rewrite: Record<string, string> = {}): Promise<ForwardProxy> {
  const connects: ForwardProxy['connects'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    res.writeHead(405).end();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    connects.push({ target: req.url ?? '', headers: req.headers });
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), rewrite[host!] ?? host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const tempDir = tempDirsPerTest('exercises-proxy-env-');
const proxies: ForwardProxy[] = [];
async function forwardProxy(rewrite?: Record<string, string>): Promise<ForwardProxy> {
  const p = await startForwardProxy(rewrite);
  proxies.push(p);
  return p;
}

afterEach(async () => {
  await closeAll();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

describe('which proxy a URL uses (curl’s rules)', () => {
  const http = new URL('http://api.example.com/x');
  const https = new URL('https://api.example.com/x');

  it('http:// uses http_proxy over HTTP_PROXY; https:// only https_proxy / HTTPS_PROXY', () => {
    expect(proxyFor({ HTTP_PROXY: 'http://up:1' }, http)?.url).toBe('http://up:1/');
    expect(proxyFor({ HTTP_PROXY: 'http://up:1', http_proxy: 'http://low:2' }, http)?.url).toBe('http://low:2/');
    expect(proxyFor({ HTTP_PROXY: 'http://up:1' }, https)).toBeUndefined();
    expect(proxyFor({ HTTPS_PROXY: 'http://s:3' }, https)).toMatchObject({ url: 'http://s:3/', variable: 'HTTPS_PROXY' });
    expect(proxyFor({ HTTPS_PROXY: 'http://s:3' }, http)).toBeUndefined();
    expect(proxyFor({}, http)).toBeUndefined();
    expect(proxyFor({ HTTP_PROXY: '  ' }, http)).toBeUndefined();
  });

  it('a proxy without a scheme is http://; credentials are masked in what is shown', () => {
    expect(proxyFor({ HTTP_PROXY: 'proxy.lan:3128' }, http)?.url).toBe('http://proxy.lan:3128/');
    const choice = proxyFor({ HTTP_PROXY: 'http://alice:s3cret@proxy.lan:3128' }, http)!;
    expect(choice.url).toBe('http://alice:s3cret@proxy.lan:3128/');
    expect(choice.shown).toBe('http://***@proxy.lan:3128/');
    expect(choice.shown).not.toMatch(/alice|s3cret/);
  });

  it('refuses a socks or malformed proxy as a usage error, without showing its password', () => {
    expect(() => proxyFor({ HTTP_PROXY: 'socks5://p:1080' }, http)).toThrow(UsageError);
    let message = '';
    try {
      proxyFor({ HTTP_PROXY: 'http://bob:pw@[bad' }, http);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/HTTP_PROXY: not a proxy URL/);
    expect(message).not.toMatch(/pw/);
  });

  it.each([
    ['*', 'http://anything.example:1/', true],
    ['example.com', 'http://example.com/', true],
    ['example.com', 'http://api.example.com/', true],
    ['example.com', 'http://badexample.com/', false],
    ['.example.com', 'http://api.example.com/', true],
    ['*.example.com', 'http://api.example.com/', true],
    ['other.org, example.com', 'http://api.example.com/', true],
    ['other.org example.com', 'http://api.example.com/', true],
    ['EXAMPLE.com', 'http://Api.Example.COM/', true],
    ['example.com:8080', 'http://api.example.com:8080/', true],
    ['example.com:8080', 'http://api.example.com:9090/', false],
    ['example.com:80', 'http://example.com/', true],
    ['127.0.0.1', 'http://127.0.0.1:5000/', true],
    ['127.0.0.1', 'http://127.0.0.10:5000/', false],
    ['0.0.1', 'http://127.0.0.1/', false],
    ['::1', 'http://[::1]:5000/', true],
    ['[::1]:5000', 'http://[::1]:5000/', true],
    ['other.org', 'http://api.example.com/', false],
  ])('NO_PROXY=%s for %s: direct %s', (noProxy, url, direct) => {
    const choice = proxyFor({ HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }, new URL(url));
    expect(choice === undefined).toBe(direct);
  });

  it('no_proxy wins over NO_PROXY', () => {
    expect(proxyFor({ HTTP_PROXY: 'http://p:1', no_proxy: 'other.org', NO_PROXY: 'example.com' }, http)).toBeDefined();
  });
});

describe('requests through a forward proxy', () => {
  const KEY = 'the-service-key-0123456789';

  it('HTTP_PROXY: the request is tunnelled through the proxy; the key reaches the service only', async () => {
    const service = await serve((req, res) => json(res, 200, { key: req.headers['x-api-key'] ?? null }));
    const proxy = await forwardProxy();
    const lines: string[] = [];
    const t = transport({ baseUrl: service.url, apiKey: KEY, proxyEnv: { HTTP_PROXY: proxy.url }, log: (l) => lines.push(l) });
    expect(await t.getJson('/exercises')).toEqual({ key: KEY });
    expect(proxy.connects).toHaveLength(1);
    expect(proxy.connects[0]!.target).toBe(`127.0.0.1:${service.port}`);
    expect(JSON.stringify(proxy.connects[0]!.headers)).not.toContain(KEY);
    expect(proxy.connects[0]!.headers['proxy-authorization']).toBeUndefined();
    expect(service.seen[0]!.headers['x-api-key']).toBe(KEY);
    expect(lines.join('\n')).toContain(`through ${proxy.url}/ (HTTP_PROXY)`);
  });

  it('credentials in the proxy URL become its Proxy-Authorization, never the key; -v masks them', async () => {
    const service = await serve((_req, res) => json(res, 200, {}));
    const proxy = await forwardProxy();
    const lines: string[] = [];
    const proxyUrl = `http://alice:pa55@127.0.0.1:${proxy.port}`;
    const t = transport({ baseUrl: service.url, apiKey: KEY, proxyEnv: { http_proxy: proxyUrl }, log: (l) => lines.push(l) });
    await t.getJson('/exercises');
    const auth = proxy.connects[0]!.headers['proxy-authorization'];
    expect(auth).toBe(`Basic ${Buffer.from('alice:pa55').toString('base64')}`);
    expect(Buffer.from(auth!.replace(/^Basic /, ''), 'base64').toString()).not.toContain(KEY);
    expect(lines.join('\n')).toContain(`through http://***@127.0.0.1:${proxy.port}/`);
    expect(lines.join('\n')).not.toMatch(/alice|pa55/);
  });

  it('a name only the proxy can resolve: the client asks no DNS, the proxy connects it', async () => {
    const service = await serve((_req, res) => json(res, 200, { ok: true }));
    const proxy = await forwardProxy({ 'catalogue.internal': '127.0.0.1' });
    const t = transport({
      baseUrl: `http://catalogue.internal:${service.port}`,
      settings: { allowInsecure: true },
      proxyEnv: { HTTP_PROXY: proxy.url },
    });
    expect(await t.getJson('/exercises')).toEqual({ ok: true });
    expect(proxy.connects[0]!.target).toBe(`catalogue.internal:${service.port}`);
  });

  it('NO_PROXY matching the host: the request goes direct, the proxy sees nothing', async () => {
    const service = await serve((_req, res) => json(res, 200, { ok: true }));
    const proxy = await forwardProxy();
    const lines: string[] = [];
    const t = transport({ baseUrl: service.url, proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' }, log: (l) => lines.push(l) });
    expect(await t.getJson('/exercises')).toEqual({ ok: true });
    expect(proxy.connects).toHaveLength(0);
    expect(service.seen).toHaveLength(1);
    expect(lines.join('\n')).not.toContain('proxy:');
  });

  it('a proxy that refuses connections is a network failure naming the service', async () => {
    const service = await serve((_req, res) => json(res, 200, {}));
    const proxy = await forwardProxy();
    await proxy.close();
    const t = transport({ baseUrl: service.url, settings: { retries: 0 }, proxyEnv: { HTTP_PROXY: proxy.url } });
    await expect(t.getJson('/exercises')).rejects.toMatchObject({
      exitCode: 6,
      hint: `The request went through the proxy ${proxy.url}/ (HTTP_PROXY): check that proxy, or list 127.0.0.1 in NO_PROXY to go direct.`,
    });
    expect(service.seen).toHaveLength(0);
  });

  it('the CLI: query with HTTP_PROXY goes through it, -v names it, the key is not in the CONNECT', async () => {
    const server = await startServer();
    try {
      const proxy = await forwardProxy();
      const r = await runInProcess(['-v', '--no-cache', 'query', '--muscle', 'chest', '--format', 'json'], {
        env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: `http://u:pw@127.0.0.1:${proxy.port}` },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/"id":/);
      expect(proxy.connects.length).toBeGreaterThan(0);
      expect(JSON.stringify(proxy.connects)).not.toContain(FREE_KEY);
      expect(r.stderr).toContain(`through http://***@127.0.0.1:${proxy.port}/ (HTTP_PROXY)`);
      expect(r.stderr).not.toContain('pw@');
    } finally {
      await server.close();
    }
  });

  it('the built CLI (its trimmed undici bundle) goes through the proxy too', async () => {
    const server = await startServer();
    try {
      const proxy = await forwardProxy();
      const r = await runCli(['--no-cache', 'show', 'Push_Up', '--format', 'json'], {
        env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: proxy.url },
        timeoutMs: 20_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Push_Up');
      expect(proxy.connects.map((c) => c.target)).toEqual([new URL(server.url).host]);
    } finally {
      await server.close();
    }
  });

  it('serve --upstream: its requests to the service go through the proxy too, the key inside the tunnel', async () => {
    const service = await serve((req, res) => json(res, 200, { key: req.headers['x-api-key'] ?? null }));
    const proxy = await forwardProxy();
    const lines: string[] = [];
    const upstream = new Upstream({
      baseUrl: service.url,
      apiKey: KEY,
      settings: { timeout: 2000 },
      ledgerPath: join(tempDir(), 'ledger.json'),
      proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com' },
      log: (l) => lines.push(l),
    });
    try {
      const answer = await upstream.fetchWhole('/exercises', {});
      expect(JSON.parse(answer.body.toString())).toEqual({ key: KEY });
      expect(proxy.connects.map((c) => c.target)).toEqual([`127.0.0.1:${service.port}`]);
      expect(JSON.stringify(proxy.connects)).not.toContain(KEY);
      expect(lines.join('\n')).toContain(`through ${proxy.url}/ (HTTP_PROXY)`);
    } finally {
      await upstream.close();
    }
  });

  it('the CLI: a socks proxy is a usage error (exit 2) before any request', async () => {
    const r = await runInProcess(['--no-cache', 'query', '--muscle', 'chest'], {
      env: { EXERCISES_BASE_URL: 'http://127.0.0.1:9', EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: 'socks5://127.0.0.1:9' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTP_PROXY: socks5 proxies are not supported/);
  });
});
