/**
 * The proxies companies run: a real squid with Debian's usual rules (CONNECT only to SSL_ports,
 * 443) and a real tinyproxy, each started here on an ephemeral port with its own config in a temp
 * folder and stopped after. An https:// target is a TLS front of ours on 127.0.0.1:443 (signed by
 * a private CA the built CLI trusts through NODE_EXTRA_CA_CERTS); an http:// one the catalogue
 * server itself, reached in absolute form. Skipped, saying why, where squid or tinyproxy is missing.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, FREE_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { type PrivateCa, type TlsFront, hasOpenssl, makePrivateCa, startTlsFront } from '../helpers/private-ca.js';

const SQUID = '/usr/sbin/squid';
const NCSA_AUTH = '/usr/lib/squid/basic_ncsa_auth';
const TINYPROXY = '/usr/bin/tinyproxy';
/** Why the squid or the tinyproxy tests cannot run here, if they cannot. */
const noSquid =
  !existsSync(SQUID) || !existsSync(NCSA_AUTH) ? `squid is not installed (${SQUID}, ${NCSA_AUTH})` : !hasOpenssl ? 'openssl is not installed' : undefined;
const noTinyproxy = !existsSync(TINYPROXY) ? `tinyproxy is not installed (${TINYPROXY})` : !hasOpenssl ? 'openssl is not installed' : undefined;
/** The name squid resolves from the test's own hosts file (never DNS): not loopback to the client, so it is proxied. */
const NAME = 'catalogue.test';

/**
 * A name /etc/hosts gives a loopback address, other than `localhost` (which the client never
 * proxies): tinyproxy resolves names with the system's resolver only, and this one it finds in
 * the file, without DNS.
 */
function loopbackAlias(): { name: string; address: string } | undefined {
  let hosts: string;
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return undefined;
  }
  for (const line of hosts.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address !== '::1' && !/^127\.\d+\.\d+\.\d+$/.test(address ?? '')) continue;
    const name = names.find((n) => n !== 'localhost' && !n.endsWith('.localhost') && /^[a-z][a-z0-9.-]*$/i.test(n));
    if (name) return { name, address: address! };
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once 127.0.0.1:`port` accepts a connection; rejects if `child` exits first or after 20 s. */
async function accepting(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before listening: ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not listening after 20 s: ${output()}`);
}

interface RunningProxy {
  url: string;
  port: number;
  /** Its log so far (squid's access.log, tinyproxy's stderr). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts `command` and waits for it to listen on `port`; its output is kept; stop() ends it (SIGTERM, then SIGKILL) and waits for its exit. */
async function startDaemon(command: string, args: string[], port: number, log: (stderr: string) => string): Promise<RunningProxy> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await accepting(port, child, () => stderr);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, port, log: () => log(stderr), stop };
}

let squidCounter = 0;

/** squid's shared-memory segments under a service name (Linux keeps them in /dev/shm). */
function shmSegments(service: string): string[] {
  return existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((n) => n.startsWith(`${service}-`) || n.startsWith(service)) : [];
}

/**
 * squid's folder. As root, squid drops to its own user (`proxy`), who cannot reach into a private
 * TMPDIR (mktemp -d makes it 0700): its folder is then made on /dev/shm, opened to that user and
 * removed when it stops; otherwise under the run's temp root.
 */
function squidFolder(): string {
  if (process.getuid?.() !== 0 || !existsSync('/dev/shm')) return tempDir('exercises-squid-');
  const dir = mkdtempSync(join('/dev/shm', 'exercises-squid-'));
  chmodSync(dir, 0o777);
  return dir;
}

/**
 * squid with Debian's usual access rules, `extraSslPort` added to SSL_ports only when 443 could
 * not be had. Run as root, squid drops to its own user (`proxy`), which must read the hosts file
 * and password file and write its logs: see squidFolder.
 */
async function startSquid(options: { extraSslPort?: number; credentials?: string } = {}): Promise<RunningProxy & { dir: string; service: string }> {
  const dir = squidFolder();
  const port = await freePort();
  // A name of its own for squid's shared-memory segments (/dev/shm), so runs side by side do not collide.
  const service = `exsquid${process.pid}n${++squidCounter}`;
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 ${NAME}\n`);
  const auth: string[] = [];
  if (options.credentials) {
    const [user, password] = options.credentials.split(':');
    const hash = spawnSync('openssl', ['passwd', '-1', password!], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(join(dir, 'htpasswd'), `${user}:${hash}\n`);
    auth.push(
      `auth_param basic program ${NCSA_AUTH} ${join(dir, 'htpasswd')}`,
      'auth_param basic realm exercises-test',
      'acl authenticated proxy_auth REQUIRED',
      'http_access deny !authenticated',
    );
  }
  const config = [
    'acl SSL_ports port 443',
    // 443 could not be bound here: the TLS front's port stands in for it.
    ...(options.extraSslPort ? [`acl SSL_ports port ${options.extraSslPort}`] : []),
    'acl Safe_ports port 80',
    'acl Safe_ports port 443',
    'acl Safe_ports port 1025-65535',
    'http_access deny !Safe_ports',
    'http_access deny CONNECT !SSL_ports',
    ...auth,
    'http_access allow localhost',
    'http_access deny all',
    `http_port 127.0.0.1:${port}`,
    'pid_filename none',
    `access_log stdio:${join(dir, 'access.log')}`,
    `cache_log ${join(dir, 'cache.log')}`,
    'cache_store_log none',
    'cache deny all',
    `hosts_file ${join(dir, 'hosts')}`,
    // No DNS: any name not in the hosts file is asked of a port nothing answers on.
    'dns_nameservers 127.0.0.1',
    'visible_hostname squid-test',
    'coredump_dir none',
    'shutdown_lifetime 0 seconds',
    'pinger_enable off',
    'icp_port 0',
    'htcp_port 0',
  ];
  writeFileSync(join(dir, 'squid.conf'), `${config.join('\n')}\n`);
  if (process.getuid?.() === 0) {
    for (const f of readdirSync(dir)) chmodSync(join(dir, f), 0o644);
  }
  const read = (name: string): string => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  const cleanUp = (): void => {
    // Its shared-memory segments, in case it could not remove them itself.
    for (const f of shmSegments(service)) rmSync(join('/dev/shm', f), { force: true });
    rmSync(dir, { recursive: true, force: true });
  };
  const running = await startDaemon(
    SQUID,
    ['-N', '-n', service, '-f', join(dir, 'squid.conf')],
    port,
    (stderr) => `${read('access.log')}${stderr}${read('cache.log')}`,
  ).catch((err: unknown) => {
    cleanUp();
    throw err;
  });
  return {
    ...running,
    dir,
    service,
    log: () => read('access.log'),
    stop: async () => {
      await running.stop();
      cleanUp();
    },
  };
}

async function startTinyproxy(extraConnectPort?: number): Promise<RunningProxy> {
  const dir = tempDir('exercises-tinyproxy-');
  const port = await freePort();
  const config = ['Listen 127.0.0.1', `Port ${port}`, 'Timeout 30', 'LogLevel Connect', 'MaxClients 20', 'Allow 127.0.0.1', 'ConnectPort 443'];
  if (extraConnectPort) config.push(`ConnectPort ${extraConnectPort}`);
  writeFileSync(join(dir, 'tinyproxy.conf'), `${config.join('\n')}\n`);
  // In the foreground and with no LogFile, it logs to its output: the test reads it there.
  const running = await startDaemon(TINYPROXY, ['-d', '-c', join(dir, 'tinyproxy.conf')], port, (stderr) => stderr);
  return {
    ...running,
    stop: async () => {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The TLS front on `host`:443 when it can be had (as root), else on a free port the proxy is told to allow. */
async function httpsFront(ca: PrivateCa, targetPort: number, host = '127.0.0.1'): Promise<{ front: TlsFront; extraPort?: number }> {
  try {
    return { front: await startTlsFront(ca, targetPort, 443, host) };
  } catch {
    const front = await startTlsFront(ca, targetPort, 0, host);
    return { front, extraPort: front.port };
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (up to 10 s) for `log()` to match: squid writes its access log when a transaction ends. */
async function logged(log: () => string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 200 && !pattern.test(log()); i++) await wait(50);
  return log();
}

describe('squid with its usual rules', () => {
  let server: CatalogueServer;
  let ca: PrivateCa;
  let front: TlsFront;
  let extraPort: number | undefined;
  let squid: Awaited<ReturnType<typeof startSquid>>;
  let authSquid: Awaited<ReturnType<typeof startSquid>>;
  const servicePort = (): number => Number(new URL(server.url).port);

  beforeAll(async () => {
    if (noSquid) return;
    server = await startServer();
    ca = makePrivateCa(tempDir('exercises-squid-ca-'), [NAME]);
    ({ front, extraPort } = await httpsFront(ca, servicePort()));
    squid = await startSquid({ ...(extraPort && { extraSslPort: extraPort }) });
    authSquid = await startSquid({ credentials: 'alice:s3cr@t', ...(extraPort && { extraSslPort: extraPort }) });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([squid?.stop(), authSquid?.stop(), front?.close(), server?.close()]);
    if (!noSquid) expect(shmSegments(`exsquid${process.pid}n`)).toEqual([]);
  });

  it('an http:// target: squid logs an absolute-form GET, no CONNECT, and the answer comes', async (ctx) => {
    if (noSquid) return ctx.skip(noSquid);
    const r = await runInProcess(['--no-cache', '--allow-insecure', '--base-url', `http://${NAME}:${servicePort()}`, 'show', 'Push_Up', '--format', 'json'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: squid.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }).id).toBe('Push_Up');
    const log = await logged(squid.log, /GET http:\/\/catalogue\.test/);
    expect(log).toMatch(new RegExp(`TCP_MISS/200 \\d+ GET http://catalogue\\.test:${servicePort()}/exercise/Push_Up`));
    expect(log).not.toContain('CONNECT');
  });

  it('an https:// target: CONNECT to 443 (SSL_ports), TLS inside; the built CLI trusts the private CA with NODE_EXTRA_CA_CERTS', async (ctx) => {
    if (noSquid) return ctx.skip(noSquid);
    const port = front.port;
    const r = await runCli(['--no-cache', '--base-url', `https://${NAME}${port === 443 ? '' : `:${port}`}`, 'show', 'Push_Up', '--format', 'json'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: squid.url, NODE_EXTRA_CA_CERTS: ca.caPath },
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }).id).toBe('Push_Up');
    expect(await logged(squid.log, /CONNECT catalogue/)).toMatch(new RegExp(`TCP_TUNNEL/200 \\d+ CONNECT catalogue\\.test:${port} `));
  });

  it('a CONNECT to a port squid does not tunnel to: 403, said as the proxy refusing, asked once', async (ctx) => {
    if (noSquid) return ctx.skip(noSquid);
    const r = await runInProcess(['--no-cache', '--base-url', `https://${NAME}:${servicePort()}`, 'show', 'Push_Up'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: squid.url },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`The proxy ${squid.url}/ refused to connect to ${NAME}:${servicePort()} (403).`);
    expect(r.stderr).toContain("squid's usual rules open tunnels to port 443 only");
    const log = await logged(squid.log, new RegExp(`CONNECT catalogue\\.test:${servicePort()}`));
    expect(log.match(new RegExp(`TCP_DENIED/403 \\d+ CONNECT catalogue\\.test:${servicePort()}`, 'g'))).toHaveLength(1);
  });

  it('squid wanting credentials (basic_ncsa_auth): 407 says so, for http:// and https://; with them in the URL the answer comes', async (ctx) => {
    if (noSquid) return ctx.skip(noSquid);
    const base = `http://${NAME}:${servicePort()}`;
    const without = await runInProcess(['--no-cache', '--allow-insecure', '--base-url', base, 'show', 'Push_Up'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: authSquid.url },
    });
    expect(without.code).toBe(6);
    expect(without.stderr).toContain(`The proxy ${authSquid.url}/ wants credentials (407 Proxy Authentication Required) to reach ${NAME}:${servicePort()}.`);
    expect(without.stderr).toContain("Give them in the proxy's URL: HTTP_PROXY=http://USER:PASSWORD@host:port");

    const tunnel = await runInProcess(['--no-cache', '--base-url', `https://${NAME}:${front.port}`, 'show', 'Push_Up'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: authSquid.url },
    });
    expect(tunnel.code).toBe(6);
    expect(tunnel.stderr).toContain(`The proxy ${authSquid.url}/ wants credentials (407 Proxy Authentication Required)`);

    const proxyWith = `http://alice:s3cr%40t@127.0.0.1:${authSquid.port}`;
    const wrong = await runInProcess(['--no-cache', '--allow-insecure', '--base-url', base, 'show', 'Push_Up'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: proxyWith.replace('s3cr%40t', 'nope') },
    });
    expect(wrong.code).toBe(6);
    expect(wrong.stderr).toContain('It refused the user name and password in HTTP_PROXY: check them.');
    const right = await runInProcess(['--no-cache', '--allow-insecure', '--base-url', base, 'show', 'Push_Up', '--format', 'json'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: proxyWith },
    });
    expect(right.code, right.stderr).toBe(0);
    expect((JSON.parse(right.stdout) as { id: string }).id).toBe('Push_Up');
    for (const r of [without, tunnel, wrong, right]) expect(r.stderr).not.toMatch(/alice|s3cr|nope/);
    expect(await logged(authSquid.log, / alice /)).toMatch(
      new RegExp(`TCP_MISS/200 \\d+ GET http://catalogue\\.test:${servicePort()}/exercise/Push_Up alice `),
    );
  });
});

const alias = loopbackAlias();

/** Why the tinyproxy tests cannot run here, if they cannot. */
const tinyproxyMissing =
  noTinyproxy ?? (alias ? undefined : 'no name in /etc/hosts for a loopback address besides localhost: tinyproxy would have to ask DNS for the target');

describe('tinyproxy', () => {
  let server: CatalogueServer;
  let ca: PrivateCa;
  let front: TlsFront;
  let tinyproxy: RunningProxy;
  const servicePort = (): number => Number(new URL(server.url).port);

  beforeAll(async () => {
    if (tinyproxyMissing || !alias) return;
    server = await startServer({ host: alias.address });
    ca = makePrivateCa(tempDir('exercises-tinyproxy-ca-'), [alias.name]);
    const https = await httpsFront(ca, servicePort(), alias.address);
    front = https.front;
    tinyproxy = await startTinyproxy(https.extraPort);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([tinyproxy?.stop(), front?.close(), server?.close()]);
  });

  it('an http:// target in absolute form, and an https:// one through CONNECT (the built CLI, NODE_EXTRA_CA_CERTS)', async (ctx) => {
    if (tinyproxyMissing || !alias) return ctx.skip(tinyproxyMissing);
    const plain = await runInProcess(
      ['--no-cache', '--allow-insecure', '--base-url', `http://${alias.name}:${servicePort()}`, 'show', 'Push_Up', '--format', 'json'],
      {
        env: { EXERCISES_API_KEY: FREE_KEY, HTTP_PROXY: tinyproxy.url },
      },
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(tinyproxy.log()).toContain(`Request (file descriptor`);
    expect(tinyproxy.log()).toMatch(new RegExp(`GET http://${alias.name}:${servicePort()}/exercise/Push_Up HTTP/1\\.1`));

    const port = front.port;
    const tls = await runCli(['--no-cache', '--base-url', `https://${alias.name}${port === 443 ? '' : `:${port}`}`, 'show', 'Push_Up', '--format', 'json'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: tinyproxy.url, NODE_EXTRA_CA_CERTS: ca.caPath },
      timeoutMs: 30_000,
    });
    expect(tls.code, tls.stderr).toBe(0);
    expect((JSON.parse(tls.stdout) as { id: string }).id).toBe('Push_Up');
    expect(tinyproxy.log()).toContain(`CONNECT ${alias.name}:${port} HTTP/1.1`);
  });

  it('a CONNECT to a port it does not allow: said as the proxy refusing', async (ctx) => {
    if (tinyproxyMissing || !alias) return ctx.skip(tinyproxyMissing);
    const r = await runInProcess(['--no-cache', '--base-url', `https://${alias.name}:${servicePort()}`, 'show', 'Push_Up'], {
      env: { EXERCISES_API_KEY: FREE_KEY, HTTPS_PROXY: tinyproxy.url },
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(new RegExp(`The proxy ${tinyproxy.url}/ refused to connect to ${alias.name}:${servicePort()} \\(403\\)\\.`));
  });
});
