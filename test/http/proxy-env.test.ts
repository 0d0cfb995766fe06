/**
 * Proxies from the environment (src/http/proxy-env.ts, attempt.ts, proxy-tunnel.ts): which
 * variable applies to which URL and what NO_PROXY exempts, by curl's rules, and how a proxy URL's
 * credentials are masked; then whole requests through a forward proxy of the test's own
 * (test/helpers/forward-proxy.ts): absolute form for http://, a CONNECT tunnel for https://, the
 * proxy's refusals said as its own, and loopback never proxied.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ProxyEnvironment, proxyFor } from '../../src/http/proxy-env.js';
import { NetworkError, UsageError } from '../../src/errors.js';
import { closeAll, json, serve, transport } from './local-server.js';
import { runInProcess } from '../helpers/test-context.js';
import { runCli } from '../helpers/run-cli.js';
import { startServer, FREE_KEY } from '../helpers/server.js';
import { Upstream } from '../../src/proxy/upstream.js';
import { tempDirsPerTest } from '../helpers/temp.js';
import { type ForwardProxy, type ForwardProxyOptions, startForwardProxy } from '../helpers/forward-proxy.js';
import { type PrivateCa, type TlsFront, hasOpenssl, makePrivateCa, startTlsFront } from '../helpers/private-ca.js';

/** The name the test's proxy resolves to 127.0.0.1 (never asked of DNS): not loopback to the client, so it is proxied. */
const NAME = 'catalogue.test';
const KEY = 'the-service-key-0123456789';

const tempDir = tempDirsPerTest('exercises-proxy-env-');
const closers: Array<() => Promise<void>> = [];
async function forwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const p = await startForwardProxy({ hosts: { [NAME]: '127.0.0.1' }, ...options });
  closers.push(() => p.close());
  return p;
}
async function tlsFront(ca: PrivateCa, targetPort: number): Promise<TlsFront> {
  const front = await startTlsFront(ca, targetPort);
  closers.push(() => front.close());
  return front;
}

afterEach(async () => {
  await closeAll();
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The message of the UsageError proxyFor raises. */
function usageMessage(env: ProxyEnvironment, url: URL): string {
  try {
    proxyFor(env, url);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('no UsageError');
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<NetworkError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(NetworkError);
  return err as NetworkError;
}

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
    expect(usageMessage({ HTTP_PROXY: 'http://bob:pw@[bad' }, http)).toMatch(/^HTTP_PROXY: not a proxy URL: http:\/\/\*\*\*@\[bad\.$/);
  });

  it.each([
    ['a / in the password', 'http://alice:s3cr/etPW@proxy.corp:3128', 'http://***@proxy.corp:3128'],
    ['an @ in the password and a bad port', 'http://alice:s3c@retPW@proxy.corp:99999', 'http://***@proxy.corp:99999'],
    ['no scheme, an @ in the password and a bad port', 'alice:s3c@retPW@proxy.corp:99999', '***@proxy.corp:99999'],
  ])('a URL that does not parse, %s: everything between // and the last @ is masked', (_what, value, shown) => {
    const message = usageMessage({ HTTPS_PROXY: value }, https);
    expect(message).toBe(`HTTPS_PROXY: not a proxy URL: ${shown}.`);
    expect(message).not.toMatch(/alice|s3c|etPW/);
  });

  it('%zz in the password is a usage error that shows neither user nor password', () => {
    const message = usageMessage({ HTTPS_PROXY: 'http://alice:pa%zzSECRET@proxy.corp:3128' }, https);
    expect(message).toMatch(/^HTTPS_PROXY: the user name or password in the proxy URL http:\/\/\*\*\*@proxy\.corp:3128\/ is not valid percent-encoding/);
    expect(message).not.toMatch(/alice|%zz|SECRET/);
  });

  it('percent-encoded credentials are decoded into the Proxy-Authorization', () => {
    const choice = proxyFor({ HTTP_PROXY: 'http://al%40ice:p%3Ass%2Fw@proxy.lan:3128' }, http)!;
    expect(choice.authorization).toBe(`Basic ${Buffer.from('al@ice:p:ss/w').toString('base64')}`);
    expect(proxyFor({ HTTP_PROXY: 'http://proxy.lan:3128' }, http)!.authorization).toBeUndefined();
  });

  it.each(['http://127.0.0.1:5000/', 'http://127.9.8.7/', 'http://[::1]:5000/', 'http://localhost:5000/', 'http://localhost.:5000/', 'https://LOCALHOST/'])(
    'loopback is never proxied: %s',
    (url) => {
      expect(proxyFor({ HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'http://p:1' }, new URL(url))).toBeUndefined();
    },
  );

  it.each([
    ['*', 'http://anything.example:1/', true],
    ['foo,*', 'http://anything.example:1/', false],
    ['*, anything.example', 'http://anything.example:1/', true],
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
    ['10.0.0.1', 'http://10.0.0.1:5000/', true],
    ['10.0.0.1', 'http://10.0.0.10:5000/', false],
    ['0.0.1', 'http://10.0.0.1/', false],
    ['fd00::1', 'http://[fd00::1]:5000/', true],
    ['[fd00::1]:5000', 'http://[fd00::1]:5000/', true],
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
  it('an http:// target goes to the proxy in absolute form, as curl sends it, with the proxy credentials; -v masks them', async () => {
    const service = await serve((req, res) => json(res, 200, { key: req.headers['x-api-key'] ?? null, host: req.headers.host }));
    const proxy = await forwardProxy();
    const lines: string[] = [];
    const t = transport({
      baseUrl: `http://${NAME}:${service.port}`,
      apiKey: KEY,
      settings: { allowInsecure: true },
      proxyEnv: { HTTP_PROXY: `http://alice:pa55@127.0.0.1:${proxy.port}` },
      log: (l) => lines.push(l),
    });
    expect(await t.getJson('/exercises', { limit: '2' })).toEqual({ key: KEY, host: `${NAME}:${service.port}` });
    expect(proxy.connects).toEqual([]);
    expect(proxy.requests.map((r) => r.target)).toEqual([`http://${NAME}:${service.port}/exercises?limit=2`]);
    expect(proxy.requests[0]!.headers['proxy-authorization']).toBe(`Basic ${Buffer.from('alice:pa55').toString('base64')}`);
    expect(lines.join('\n')).toContain(`proxy: http://${NAME}:${service.port} through http://***@127.0.0.1:${proxy.port}/ (HTTP_PROXY)`);
    expect(lines.join('\n')).not.toMatch(/alice|pa55/);
  });

  it('a loopback base URL never reaches the proxy (127.0.0.1, localhost.), whatever HTTP_PROXY says', async () => {
    const service = await serve((_req, res) => json(res, 200, { ok: true }));
    const proxy = await forwardProxy();
    for (const base of [service.url, `http://localhost.:${service.port}`]) {
      const t = transport({ baseUrl: base, apiKey: KEY, proxyEnv: { HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '' } });
      expect(await t.getJson('/exercises')).toEqual({ ok: true });
    }
    expect(service.seen).toHaveLength(2);
    expect([...proxy.connects, ...proxy.requests]).toEqual([]);
  });

  it('NO_PROXY matching the host: the request goes direct, the proxy sees nothing', async () => {
    const service = await serve((_req, res) => json(res, 200, { ok: true }));
    const proxy = await forwardProxy({ hosts: {} });
    const lines: string[] = [];
    // The name goes direct: the client resolves it itself (localhost: no DNS).
    const t = transport({
      baseUrl: `http://localhost:${service.port}`,
      proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,localhost' },
      log: (l) => lines.push(l),
    });
    expect(await t.getJson('/exercises')).toEqual({ ok: true });
    expect([...proxy.connects, ...proxy.requests]).toEqual([]);
    expect(lines.join('\n')).not.toContain('proxy:');
  });

  describe.skipIf(!hasOpenssl)('https:// targets (a private CA made with openssl)', () => {
    const privateCa = (): PrivateCa => makePrivateCa(tempDir('exercises-proxy-ca-'), [NAME]);

    it('a direct request to a server of a private CA: the error says to trust it with NODE_EXTRA_CA_CERTS, and is not retried', async () => {
      const service = await serve((_req, res) => json(res, 200, {}));
      const front = await tlsFront(privateCa(), service.port);
      const err = await failure(transport({ baseUrl: `https://127.0.0.1:${front.port}`, settings: { retries: 2 } }).getJson('/exercises'));
      expect(err.message).toMatch(
        /^Secure connection to 127\.0\.0\.1:\d+ failed: its certificate is not signed by a CA this machine trusts \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\.$/,
      );
      expect(err.hint).toContain('trust that CA: NODE_EXTRA_CA_CERTS=<ca.pem>');
      expect(err.details?.final).toBe(true);
      expect(service.seen).toHaveLength(0);
    });

    it('is tunnelled with CONNECT, TLS to the service inside it: the proxy sees the host and port only, the key never', async () => {
      const service = await serve((_req, res) => json(res, 200, {}));
      const front = await tlsFront(privateCa(), service.port);
      const proxy = await forwardProxy();
      const t = transport({
        baseUrl: `https://${NAME}:${front.port}`,
        apiKey: KEY,
        settings: { retries: 0 },
        proxyEnv: { HTTPS_PROXY: proxy.url, HTTP_PROXY: 'http://127.0.0.1:9' },
      });
      // In-process the private CA is not trusted: the handshake with the service, through the tunnel, is what fails.
      const err = await failure(t.getJson('/exercises'));
      expect(err.details?.code).toMatch(/^UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT_LOCALLY)$/);
      expect(err.hint).toContain('NODE_EXTRA_CA_CERTS');
      expect(proxy.connects.map((c) => c.target)).toEqual([`${NAME}:${front.port}`]);
      expect(proxy.requests).toEqual([]);
      expect(JSON.stringify(proxy.connects)).not.toContain(KEY);
    });

    it('the built CLI through the proxy, trusting the CA with NODE_EXTRA_CA_CERTS: the answer comes; without it, exit 6 naming the variable', async () => {
      const server = await startServer();
      closers.push(() => server.close());
      const ca = privateCa();
      const front = await tlsFront(ca, Number(new URL(server.url).port));
      const proxy = await forwardProxy();
      const show = (extra: Record<string, string>) =>
        runCli(['--no-cache', '--base-url', `https://${NAME}:${front.port}`, 'show', 'Push_Up', '--format', 'json'], {
          env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: proxy.url, ...extra },
          timeoutMs: 30_000,
        });
      const trusted = await show({ NODE_EXTRA_CA_CERTS: ca.caPath });
      expect(trusted.code, trusted.stderr).toBe(0);
      expect((JSON.parse(trusted.stdout) as { id: string }).id).toBe('Push_Up');
      const untrusted = await show({});
      expect(untrusted.code).toBe(6);
      expect(untrusted.stderr).toContain('NODE_EXTRA_CA_CERTS=<ca.pem>');
      expect(proxy.connects.map((c) => c.target)).toEqual([`${NAME}:${front.port}`, `${NAME}:${front.port}`]);
    });
  });

  describe('the proxy’s refusals are its own errors, naming it; not retried as a flaky service would be', () => {
    it.each([
      ['https', '407', /^The proxy http:\/\/127\.0\.0\.1:\d+\/ wants credentials \(407 Proxy Authentication Required\) to reach catalogue\.test:\d+\.$/, 1],
      ['http', '407', /^The proxy http:\/\/127\.0\.0\.1:\d+\/ wants credentials \(407 Proxy Authentication Required\) to reach catalogue\.test:\d+\.$/, 1],
      ['https', '403', /^The proxy http:\/\/127\.0\.0\.1:\d+\/ refused to connect to catalogue\.test:\d+ \(403\)\.$/, 1],
      [
        'https',
        'garbage',
        /^The proxy http:\/\/127\.0\.0\.1:\d+\/ answered the request for a tunnel to catalogue\.test:\d+ with something that is not HTTP\.$/,
        1,
      ],
      ['https', 'close', /^The proxy http:\/\/127\.0\.0\.1:\d+\/ closed the connection when asked for a tunnel to catalogue\.test:\d+\.$/, 2],
      // In absolute form a closed connection may be the proxy's or the service's: the hint names the proxy.
      ['http', 'close', /^The connection to catalogue\.test:9 was dropped before the answer was complete\.$/, 2],
    ] as const)('%s target, proxy mode %s: %s, %i attempt(s) with --retries 1', async (scheme, mode, message, attempts) => {
      const proxy = await forwardProxy({ mode });
      const t = transport({
        baseUrl: `${scheme}://${NAME}:9`,
        settings: { retries: 1, allowInsecure: true },
        proxyEnv: { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url },
      });
      const err = await failure(t.getJson('/exercises'));
      expect(err.message).toMatch(message);
      expect(err.exitCode).toBe(6);
      if (scheme === 'https' || mode !== 'close') expect(err.details?.proxy).toBe(`${proxy.url}/`);
      expect(proxy.connects.length + proxy.requests.length).toBe(attempts);
      expect(`${err.message} ${err.hint ?? ''}`).toContain(proxy.url);
      if (mode === '407')
        expect(err.hint).toBe(
          `Give them in the proxy's URL: ${scheme.toUpperCase()}_PROXY=http://USER:PASSWORD@host:port (percent-encode any @ : / % in them).`,
        );
    });

    it.each(['http', 'https'])('a 407 (%s target) is given back to the request ledger: the service never saw the request', async (scheme) => {
      const proxy = await forwardProxy({ mode: '407' });
      let counted = 0;
      const t = transport({
        baseUrl: `${scheme}://${NAME}:9`,
        settings: { retries: 0, allowInsecure: true },
        proxyEnv: { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url },
        beforeRequest: () => {
          counted++;
          return () => void counted--;
        },
      });
      await failure(t.getJson('/exercises'));
      expect(proxy.connects.length + proxy.requests.length).toBe(1);
      expect(counted).toBe(0);
    });

    it('a proxy that closes every CONNECT sees --retries + 1 attempts however fast it fails', async () => {
      for (const retries of [0, 2]) {
        const proxy = await forwardProxy({ mode: 'close' });
        const t = transport({ baseUrl: `https://${NAME}`, settings: { retries }, proxyEnv: { HTTPS_PROXY: proxy.url } });
        const err = await failure(t.getJson('/exercises'));
        expect(err.message).toContain(`The proxy ${proxy.url}/ closed the connection`);
        expect(proxy.connects).toHaveLength(retries + 1);
        expect(proxy.connects[0]!.target).toBe(`${NAME}:443`);
      }
    });

    it('a proxy that never answers the CONNECT: a timeout naming the proxy', async () => {
      const proxy = await forwardProxy({ mode: 'hang' });
      const t = transport({ baseUrl: `https://${NAME}:9`, settings: { retries: 0, timeout: 300 }, proxyEnv: { HTTPS_PROXY: proxy.url } });
      const err = await failure(t.getJson('/exercises'));
      expect(err.message).toBe(`The proxy ${proxy.url}/ did not open a tunnel to ${NAME}:9 within 300 ms.`);
      expect(err.code).toBe('timeout');
      expect(proxy.connects).toHaveLength(1);
    });

    it('a proxy that wants credentials: refused ones are said so and never shown; the right ones pass', async () => {
      const service = await serve((_req, res) => json(res, 200, { ok: true }));
      const proxy = await forwardProxy({ credentials: 'alice:s3cret' });
      const base = { baseUrl: `http://${NAME}:${service.port}`, settings: { allowInsecure: true, retries: 2 } };
      const wrong = await failure(transport({ ...base, proxyEnv: { http_proxy: `http://alice:nope@127.0.0.1:${proxy.port}` } }).getJson('/exercises'));
      expect(wrong.message).toContain(`The proxy http://***@127.0.0.1:${proxy.port}/ wants credentials (407`);
      expect(wrong.hint).toBe('It refused the user name and password in http_proxy: check them.');
      expect(`${wrong.message} ${wrong.hint}`).not.toMatch(/alice|nope/);
      expect(proxy.requests).toHaveLength(1);
      const right = transport({ ...base, proxyEnv: { http_proxy: `http://alice:s3cret@127.0.0.1:${proxy.port}` } });
      expect(await right.getJson('/exercises')).toEqual({ ok: true });
      expect(service.seen).toHaveLength(1);
    });

    it.each(['http', 'https'])('a proxy that refuses connections (%s target): the message names the proxy', async (scheme) => {
      const proxy = await forwardProxy();
      await proxy.close();
      const t = transport({
        baseUrl: `${scheme}://${NAME}:9`,
        settings: { retries: 0, allowInsecure: true },
        proxyEnv: { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      });
      const err = await failure(t.getJson('/exercises'));
      expect(err.message).toBe(`Could not connect to the proxy ${proxy.url}/: connection refused.`);
      expect(err.hint).toMatch(
        /^The request went through the proxy http:\/\/127\.0\.0\.1:\d+\/ \(HTTPS?_PROXY\): check that proxy, or list catalogue\.test in NO_PROXY/,
      );
    });
  });

  describe('the CLI', () => {
    it('query with HTTP_PROXY: absolute form through it, -v names it masked', async () => {
      const server = await startServer();
      closers.push(() => server.close());
      const proxy = await forwardProxy();
      const r = await runInProcess(['-v', '--no-cache', '--allow-insecure', 'query', '--muscle', 'chest', '--format', 'json'], {
        env: {
          EXERCISES_BASE_URL: `http://${NAME}:${new URL(server.url).port}`,
          EXERCISES_API_KEY: FREE_KEY,
          HTTP_PROXY: `http://u:pw@127.0.0.1:${proxy.port}`,
        },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/"id":/);
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(proxy.requests[0]!.target).toMatch(/^http:\/\/catalogue\.test:\d+\/exercise/);
      expect(r.stderr).toContain(`through http://***@127.0.0.1:${proxy.port}/ (HTTP_PROXY)`);
      expect(r.stderr).not.toContain('pw@');
    });

    it('a loopback base URL with HTTP_PROXY set: the key never reaches the proxy', async () => {
      const server = await startServer();
      closers.push(() => server.close());
      const proxy = await forwardProxy();
      const r = await runInProcess(['--no-cache', 'show', 'Push_Up', '--format', 'json'], {
        env: { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
      });
      expect(r.code, r.stderr).toBe(0);
      expect([...proxy.connects, ...proxy.requests]).toEqual([]);
    });

    it('a base URL on localhost. (trailing dot) is loopback: plain http allowed, no proxy', async () => {
      const server = await startServer();
      closers.push(() => server.close());
      const r = await runInProcess(['--no-cache', '--base-url', `http://localhost.:${new URL(server.url).port}`, 'show', 'Push_Up', '--format', 'json'], {
        env: { EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: 'http://127.0.0.1:9' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Push_Up');
    });

    it('a proxy that closes every CONNECT, --retries 1: two attempts, exit 6 naming the proxy', async () => {
      const proxy = await forwardProxy({ mode: 'close' });
      const r = await runInProcess(['--no-cache', '--retries', '1', '--base-url', `https://${NAME}:9`, 'show', 'Push_Up'], {
        env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: proxy.url },
      });
      expect(r.code).toBe(6);
      expect(r.stderr).toContain(`The proxy ${proxy.url}/ closed the connection when asked for a tunnel to ${NAME}:9.`);
      expect(proxy.connects).toHaveLength(2);
    });

    it.each([
      ['socks5://127.0.0.1:9', /HTTPS_PROXY: socks5 proxies are not supported/],
      ['http://alice:s3cr/etPW@proxy.corp:3128', /HTTPS_PROXY: not a proxy URL: http:\/\/\*\*\*@proxy\.corp:3128\./],
      ['http://alice:s3c@retPW@proxy.corp:99999', /HTTPS_PROXY: not a proxy URL: http:\/\/\*\*\*@proxy\.corp:99999\./],
      [
        'http://alice:s3c%zzretPW@proxy.corp:3128',
        /HTTPS_PROXY: the user name or password in the proxy URL http:\/\/\*\*\*@proxy\.corp:3128\/ is not valid percent-encoding/,
      ],
      ['http://alice:s3c@\u001b[31mevil\u0007:99999', /HTTPS_PROXY: not a proxy URL: http:\/\/\*\*\*@evil:99999\./],
    ])('HTTPS_PROXY=%s: a usage error (exit 2) before any request, no credential shown', async (value, message) => {
      // Refused before any connection: catalogue.test is never looked up.
      const r = await runInProcess(['--no-cache', '--base-url', `https://${NAME}:9`, 'show', 'Push_Up'], {
        env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: value },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/alice|s3c|etPW|[\u001b\u0007]/);
    });
  });

  it('serve --upstream: its requests to the service go through the proxy too', async () => {
    const service = await serve((req, res) => json(res, 200, { key: req.headers['x-api-key'] ?? null }));
    const proxy = await forwardProxy();
    const lines: string[] = [];
    const upstream = new Upstream({
      baseUrl: `http://${NAME}:${service.port}`,
      apiKey: KEY,
      settings: { timeout: 2000, allowInsecure: true },
      ledgerPath: join(tempDir(), 'ledger.json'),
      proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.com' },
      log: (l) => lines.push(l),
    });
    try {
      const answer = await upstream.fetchWhole('/exercises', {});
      expect(JSON.parse(answer.body.toString())).toEqual({ key: KEY });
      expect(proxy.requests.map((r) => r.target)).toEqual([`http://${NAME}:${service.port}/exercises`]);
      expect(lines.join('\n')).toContain(`through ${proxy.url}/ (HTTP_PROXY)`);
    } finally {
      await upstream.close();
    }
  });
});
