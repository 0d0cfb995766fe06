/**
 * A real redis-server for a test, on 127.0.0.1 below the ephemeral port range (so the port stays free
 * across a restart), saving nothing, under a temp dir; TLS only with `tls` (rediss://).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { tempDir } from './temp.js';

/** Why no Redis can be had here, or undefined when redis-server runs. */
export function redisMissing(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'redis-server is not installed (apt-get install redis-server; .ci/run does)';
}

export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A certificate and its key (PEM files) for a TLS-only Redis. */
export interface RedisTls {
  cert: string;
  key: string;
}

/** One redis-server on `port`; resolves once it accepts connections, rejects when it exits first (the port taken). */
async function launch(port: number, dir: string, args: readonly string[], tls: RedisTls | undefined): Promise<ChildProcess> {
  const ports = tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', tls.cert, '--tls-key-file', tls.key, '--tls-auth-clients', 'no']
    : ['--port', String(port)];
  const child = spawn('redis-server', [...ports, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server on ${port} exited (${code}): ${out.slice(-300)}`)));
  });
  await ready;
  return child;
}

export async function startRedis(args: readonly string[] = [], tls?: RedisTls): Promise<RedisServer> {
  const dir = tempDir('exercises-redis-');
  let child: ChildProcess | undefined;
  let port = 0;
  for (let tries = 0; !child; tries++) {
    port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      child = await launch(port, dir, args, tls);
    } catch (err) {
      if (tries >= 5) throw err;
    }
  }
  const server: RedisServer = {
    port,
    url: `${tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
    async start() {
      child ??= await launch(port, dir, args, tls);
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
