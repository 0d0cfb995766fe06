/**
 * The CONNECT tunnel (src/http/proxy-tunnel.ts) against a bare TCP proxy of the test's own: what
 * it leaves behind when the tunnel opens but the TLS inside it never completes.
 */
import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tunnelConnector } from '../../src/http/proxy-tunnel.js';
import { loopbackLookup } from '../../src/http/attempt.js';
import type { ProxyChoice } from '../../src/http/proxy-env.js';

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A proxy that opens every tunnel (200) and then says nothing: the TLS handshake inside never ends. */
async function silentTunnelProxy(): Promise<{ proxy: ProxyChoice; open: Set<Socket> }> {
  const open = new Set<Socket>();
  const server = createServer((socket) => {
    open.add(socket);
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => open.delete(socket));
    socket.once('data', () => socket.write('HTTP/1.1 200 Connection established\r\n\r\n'));
  });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { proxy: { url, shown: url, variable: 'HTTPS_PROXY' }, open };
}

describe('a tunnel opened, then no TLS within the time limit', () => {
  it('fails naming the proxy, and closes the tunnel rather than leaving it open', async () => {
    const { proxy, open } = await silentTunnelProxy();
    const connect = tunnelConnector(proxy, 300, loopbackLookup);
    const err = await new Promise<Error | null>((settled) =>
      connect({ hostname: 'catalogue.test', host: 'catalogue.test', port: '443', protocol: 'https:' }, (...args: unknown[]) =>
        settled(args[0] as Error | null),
      ),
    );
    expect(err?.message).toContain(`The proxy ${proxy.shown}`);
    expect(err?.message).toContain('opened a tunnel to catalogue.test:443, but no TLS handshake came through it within 300 ms');
    // The proxy saw the connection; once the attempt failed, nothing of it may stay open.
    await vi.waitUntil(() => open.size === 0, { timeout: 5_000, interval: 20 }).catch(() => undefined);
    expect(open.size).toBe(0);
  });
});
