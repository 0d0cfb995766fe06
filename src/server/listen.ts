/** Starting a node:http server on a host and port (0: any free one), for the catalogue server and the proxy. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens, and resolves with the port taken and the URL clients use (an IPv6 host in brackets; https for a node:https server). */
export async function listenOn(server: Server, host: string, port: number, scheme: 'http' | 'https' = 'http'): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const taken = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return { port: taken, url: `${scheme}://${urlHost}:${taken}` };
}
