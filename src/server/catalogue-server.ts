/**
 * The catalogue server: a read-only HTTP server over a catalogue directory that implements
 * the service interface (spec §4) with the decisions of docs/design.md, answering with
 * catalogue-handler.ts behind a socket. It backs `exercises serve` and the tests; --sandbox
 * and --catalogue run the same handler with no socket (in-process.ts). Its listenOn starts the proxy too.
 */
import { once } from 'node:events';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CatalogueHandlerOptions, createCatalogueHandler } from './catalogue-handler.js';

export interface CatalogueServerOptions extends CatalogueHandlerOptions {
  host?: string;
  port?: number;
}

export interface CatalogueServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The hosts that mean every interface of the machine. */
export const ANY_ADDRESS: readonly string[] = ['0.0.0.0', '::'];

/** Listens on `host` and `port` (0: any free one); the port taken and the URL clients use (loopback for every interface, an IPv6 host in brackets; https for a node:https server). */
export async function listenOn(server: Server, host: string, port: number, scheme: 'http' | 'https' = 'http'): Promise<{ port: number; url: string }> {
  // once() rejects when 'error' comes first (the port taken, the host not this machine's).
  await once(server.listen(port, host), 'listening');
  const taken = (server.address() as AddressInfo).port;
  // Bound to every interface (dual-stack for `::`), it answers on loopback too: the URL names an address a client can reach.
  const shown = ANY_ADDRESS.includes(host) ? '127.0.0.1' : host;
  return { port: taken, url: `${scheme}://${shown.includes(':') ? `[${shown}]` : shown}:${taken}` };
}

export async function createCatalogueServer(options: CatalogueServerOptions): Promise<CatalogueServer> {
  return serveRequests(await createCatalogueHandler(options), options.host ?? '127.0.0.1', options.port ?? 0);
}

/** An HTTP server on `host` and `port` answering every request with `handle` (a catalogue handler, or one wrapping it). */
export async function serveRequests(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  host: string,
  port: number,
): Promise<CatalogueServer> {
  const server = createServer((req, res) => void handle(req, res));

  // A request node cannot even parse (bad request line, headers too large) gets a plain 400/431.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  const listening = await listenOn(server, host, port);

  let closing: Promise<void> | undefined;
  return {
    ...listening,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests in flight get a moment to finish; then every connection goes.
        setTimeout(() => server.closeAllConnections(), 200).unref();
      });
      return closing;
    },
  };
}
