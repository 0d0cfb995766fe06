/**
 * Plain node:http servers on 127.0.0.1:0 for the transport's tests: each handler sees every
 * request with its number, and every server and transport made here is closed by closeAll().
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transport, type TransportOptions, type TransportSettings } from '../../src/http/transport.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

const servers: Server[] = [];
const transports: Transport[] = [];

export async function serve(handler: Handler): Promise<{ url: string; port: number; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    handler(req, res, seen.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen };
}

export function transport(options: Partial<Omit<TransportOptions, 'settings'>> & { baseUrl: string; settings?: Partial<TransportSettings> }): Transport {
  const t = new Transport({ ...options, settings: { timeout: 2000, retries: 2, ...options.settings } });
  transports.push(t);
  return t;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function closeAll(): Promise<void> {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
}
