/**
 * Only requests that reached the service count (issue 29): an attempt counted before it was
 * sent is given back when it provably never was written — a DNS failure, a refused connection
 * (direct or to the forward proxy), a proxy failing the tunnel, a failed TLS handshake — so an
 * offline hour spends none of the budget and each run exits 6 (the network), never 5. A
 * request the server received stays counted, and a process killed between counting and giving
 * back leaves a readable ledger that counts it (too high, never too low): the test holds the
 * ledger's lock itself, so the give back waits on it until the kill.
 *
 * No DNS is ever asked: dns.lookup is replaced while a test needs a name to fail, and the
 * host is under `.invalid`, which no resolver answers anyway.
 */
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { type Server, createServer as createHttpServer } from 'node:http';
import { type AddressInfo, type Socket, createServer as createTcpServer } from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { closedPort } from '../helpers/closed-port.js';
import { lockFile } from '../../src/util/file-lock.js';
import { LEDGER_LOCK_STALE_MS } from '../../src/defaults.js';

const UNRESOLVABLE = 'https://api.exercises.invalid';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function home(): string {
  return tempDir('exercises-giveback-');
}

function env(homeDir: string, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: homeDir,
    XDG_CACHE_HOME: join(homeDir, '.cache'),
    XDG_CONFIG_HOME: join(homeDir, '.config'),
    EXERCISES_BASE_URL: baseUrl,
    EXERCISES_API_KEY: PREMIUM_KEY,
    ...extra,
  };
}

/** This month's count for `baseUrl` with the test's key, as `quota --json` reads it. */
async function counted(homeDir: string, baseUrl: string): Promise<number> {
  const r = await runInProcess(['quota', '--json'], { env: env(homeDir, baseUrl) });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { requests: number }).requests;
}

/** Replaces dns.lookup (for require and import alike) with one that fails every name, alternating ENOTFOUND and EAI_AGAIN. */
function failingDns(): { asked: string[] } {
  const original = dns.lookup;
  const asked: string[] = [];
  dns.lookup = ((hostname: string, options: unknown, callback?: unknown) => {
    asked.push(hostname);
    const cb = (typeof options === 'function' ? options : callback) as (err: Error) => void;
    const code = asked.length % 2 === 1 ? 'ENOTFOUND' : 'EAI_AGAIN';
    process.nextTick(() => cb(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname })));
  }) as typeof dns.lookup;
  syncBuiltinESMExports();
  cleanups.push(() => {
    dns.lookup = original;
    syncBuiltinESMExports();
  });
  return { asked };
}

/** A server of the test's own on 127.0.0.1, closed after the test. */
async function listen<T extends Server | ReturnType<typeof createTcpServer>>(made: T): Promise<number> {
  const sockets = new Set<Socket>();
  made.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => made.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => made.close(resolve));
  });
  return (made.address() as AddressInfo).port;
}

/** Runs `args` `times` times under --budget 5: every run must fail on the network (6), never on the budget (5). */
async function runsExitNetwork(homeDir: string, baseUrl: string, args: string[], times: number, extra: Record<string, string> = {}): Promise<string[]> {
  const stderr: string[] = [];
  for (let i = 0; i < times; i++) {
    const r = await runInProcess(['--budget', '5', ...args, `Offline_${i}`], { env: env(homeDir, baseUrl, extra) });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).not.toMatch(/budget/i);
    stderr.push(r.stderr);
  }
  return stderr;
}

describe('requests that never left are given back', () => {
  it('8 runs failing to resolve the host (retries included) leave quota at 0, each exit 6', async () => {
    const h = home();
    const { asked } = failingDns();
    const errors = await runsExitNetwork(h, UNRESOLVABLE, ['--retries', '1', 'show'], 8);
    expect(errors[0]).toContain('Could not resolve the host name api.exercises.invalid');
    // Every attempt asked the (fake) resolver: 8 runs of two attempts, each counted and given back on its own.
    expect(asked.filter((name) => name === 'api.exercises.invalid').length).toBeGreaterThanOrEqual(16);
    expect(await counted(h, UNRESOLVABLE)).toBe(0);
  });

  it('8 refused connections (a closed 127.0.0.1 port) leave quota at 0, each exit 6, and the budget still lets 5 through', async () => {
    const h = home();
    const base = `http://127.0.0.1:${await closedPort()}`;
    const errors = await runsExitNetwork(h, base, ['--retries', '1', 'show'], 8);
    expect(errors[0]).toContain('connection refused');
    expect(await counted(h, base)).toBe(0);
    // The same budget then spends on requests that reach a service: exactly 5.
    const before = server.requests.length;
    const ok = await runInProcess(['--budget', '5', 'show', 'Push_Up', 'Pull_Up', 'Plank', 'Box_Jump', 'Kettlebell_Swing'], { env: env(h, server.url) });
    expect(ok.code, ok.stderr).toBe(0);
    expect(server.requests.length - before).toBe(5);
  });

  it('a refused connection to the forward proxy, and a proxy that fails the tunnel (502), are given back too', async () => {
    const h = home();
    const refusing = `http://127.0.0.1:${await closedPort()}`;
    const errors = await runsExitNetwork(h, UNRESOLVABLE, ['--retries', '0', 'show'], 3, { HTTPS_PROXY: refusing });
    expect(errors[0]).toContain('through the proxy');
    let tunnels = 0;
    const proxy = createHttpServer();
    proxy.on('connect', (_req, socket: Socket) => {
      tunnels += 1;
      socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    });
    const port = await listen(proxy);
    await runsExitNetwork(h, UNRESOLVABLE, ['--retries', '0', 'show'], 3, { HTTPS_PROXY: `http://127.0.0.1:${port}` });
    expect(tunnels).toBe(3);
    expect(await counted(h, UNRESOLVABLE)).toBe(0);
  });

  it('a TLS handshake that fails before the request is written is given back', async () => {
    const h = home();
    let connections = 0;
    const notTls = createTcpServer((socket) => {
      connections += 1;
      socket.end('HTTP/1.1 400 Not TLS\r\n\r\n');
    });
    const base = `https://127.0.0.1:${await listen(notTls)}`;
    await runsExitNetwork(h, base, ['--retries', '0', 'show'], 3);
    expect(connections).toBe(3);
    expect(await counted(h, base)).toBe(0);
  });
});

describe('requests that reached the service stay counted', () => {
  it('a request the server received, then stalled past the timeout, counts: exit 6, quota 1', async () => {
    const h = home();
    let received = 0;
    const stalling = createHttpServer(() => {
      received += 1; // and never answers
    });
    const base = `http://127.0.0.1:${await listen(stalling)}`;
    const r = await runInProcess(['--budget', '5', '--retries', '0', '--timeout', '300ms', 'show', 'Push_Up'], { env: env(h, base) });
    expect(r.code, r.stderr).toBe(6);
    expect(received).toBe(1);
    expect(await counted(h, base)).toBe(1);
  });

  it('a process killed between counting and giving back leaves a readable ledger that still counts every written request', async () => {
    const h = home();
    // Two requests that reached the service, counted as any run counts them.
    const written = await runCli(['--budget', '5', 'show', 'Push_Up', 'Pull_Up'], { env: env(h, server.url) });
    expect(written.code, written.stderr).toBe(0);
    const ledger = join(h, '.cache', 'exercises', 'ledger.json');
    const requestsIn = (file: string): number =>
      Object.values(JSON.parse(readFileSync(file, 'utf8')).counts as Record<string, Record<string, number>>)
        .flatMap(Object.values)
        .reduce((a, b) => a + b, 0);
    // A forward proxy that holds each tunnel while `holding`, then refuses it (502): the request never
    // reaches the service, so its count is given back, which needs the ledger's lock.
    let holding = true;
    const held: Socket[] = [];
    const refuse = (socket: Socket): void => void socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    const proxy = createHttpServer();
    proxy.on('connect', (_req, socket: Socket) => (holding ? held.push(socket) : refuse(socket)));
    const viaProxy = env(h, UNRESOLVABLE, { HTTPS_PROXY: `http://127.0.0.1:${await listen(proxy)}` });
    let pid: number | undefined;
    const killed = runCli(['--budget', '5', '--retries', '0', 'show', 'Offline'], {
      env: viaProxy,
      onSpawn: (child) => (pid = child.pid),
      timeoutMs: 30_000,
    });
    // The tunnel asked for: the request was counted durably before it went out.
    await vi.waitUntil(() => held.length === 1, { timeout: 20_000, interval: 20 });
    expect(requestsIn(ledger)).toBe(3);
    // The test takes the ledger's lock, so the give back waits on it; the tunnel is refused, then the run killed.
    const { lock } = await lockFile(ledger, { waitMs: 5_000, staleMs: LEDGER_LOCK_STALE_MS });
    try {
      const closed = new Promise((resolve) => held[0]!.once('close', resolve));
      refuse(held[0]!);
      await closed;
      process.kill(pid!, 'SIGKILL');
      expect((await killed).signal).toBe('SIGKILL');
    } finally {
      await lock.release();
    }
    // Readable, and one too high (the refused request) rather than one too low.
    expect(requestsIn(ledger)).toBe(3);
    expect(await counted(h, server.url)).toBe(2);
    expect(await counted(h, UNRESOLVABLE)).toBe(1); // another origin: the refused one counts under its own
    // A run that is not killed gives its own back, leaving the one the killed run kept.
    holding = false;
    const again = await runCli(['--budget', '5', '--retries', '0', 'show', 'Offline'], { env: viaProxy });
    expect(again.code, again.stderr).toBe(6);
    expect(await counted(h, UNRESOLVABLE)).toBe(1);
  });
});
