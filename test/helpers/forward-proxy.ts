/**
 * A forward proxy of the tests' own on 127.0.0.1 that records what it is asked: CONNECT tunnels
 * and absolute-form requests (`GET http://host:port/path`). It resolves names from its `hosts`
 * map only (never DNS), and behaves as `mode` says: ok, 407 (wants credentials), 403, close (drops
 * every request unanswered), garbage (answers with something that is not HTTP), hang (never answers).
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';

export type ForwardProxyMode = 'ok' | '407' | '403' | 'close' | 'garbage' | 'hang';

export interface ForwardProxy {
  url: string;
  port: number;
  mode: ForwardProxyMode;
  /** CONNECT requests: the target (`host:port`) and the headers the client sent the proxy. */
  connects: Array<{ target: string; headers: IncomingMessage['headers'] }>;
  /** Absolute-form requests: the request line's target and headers. */
  requests: Array<{ target: string; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  mode?: ForwardProxyMode;
  /** Names the proxy can reach, and their addresses; any other name is answered 502. */
  hosts?: Record<string, string>;
  /** `user:password` the proxy wants (Basic), else 407. */
  credentials?: string;
}

const REFUSALS: Partial<Record<ForwardProxyMode, string>> = {
  '407': 'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
  '403': 'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n',
  garbage: 'SSH-2.0-OpenSSH_9.2\r\nProtocol mismatch.\r\n',
};

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  };
  const wanted = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;
  const hosts = options.hosts ?? {};

  /** What the mode (or missing credentials) answers instead of proxying; true when it did. */
  const refused = (req: IncomingMessage, socket: Socket): boolean => {
    const mode = wanted && req.headers['proxy-authorization'] !== wanted ? '407' : proxy.mode;
    if (mode === 'ok') return false;
    if (mode === 'close') socket.destroy();
    else if (mode !== 'hang') socket.end(REFUSALS[mode]!);
    return true;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    proxy.requests.push({ target: req.url ?? '', headers: req.headers });
    track(req.socket);
    if (refused(req, req.socket)) return;
    const target = new URL(req.url ?? '');
    const address = hosts[target.hostname];
    if (!address) return void res.writeHead(502).end();
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const forwarded = request({ host: address, port: target.port || 80, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    forwarded.end();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    proxy.connects.push({ target: req.url ?? '', headers: req.headers });
    track(client);
    if (refused(req, client)) return;
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const address = hosts[host!];
    if (!address) return void client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    const upstream = connect(Number(port), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const proxy: ForwardProxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: options.mode ?? 'ok',
    connects: [],
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
