/**
 * The catalogue server: a read-only HTTP server over a catalogue directory that implements
 * the service interface (spec §4) with the decisions of docs/design.md. It backs the tests,
 * `--sandbox` and `exercises serve`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadCatalogue } from './catalogue.js';
import { HttpError, sendError } from './http-error.js';
import type { Plan } from './records.js';
import { route } from './router.js';
import { escapeUnsafe } from '../util/text.js';
import { SANDBOX_FREE_KEY, SANDBOX_PREMIUM_KEY } from '../defaults.js';
import { listenOn } from './listen.js';

export type { Plan } from './records.js';

export interface CatalogueServerOptions {
  dir: string;
  /** API keys and their plans; default SANDBOX_KEYS (the public sandbox key of each plan). */
  keys?: Record<string, Plan>;
  host?: string;
  port?: number;
  /** false → pagination is only { total }, like a service that sends no cursors. */
  cursors?: boolean;
  /** Fault injection for tests: runs first; return true if it answered the request. */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /** One line per request: method, path, status, milliseconds. Never the key. */
  log?: (line: string) => void;
}

export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  status: number;
  range?: string;
  ifRange?: string;
  hadKey: boolean;
}

export interface CatalogueServer {
  url: string;
  port: number;
  requests: RequestRecord[];
  close(): Promise<void>;
}

export const SANDBOX_KEYS: Readonly<Record<string, Plan>> = Object.freeze({
  [SANDBOX_FREE_KEY]: 'free',
  [SANDBOX_PREMIUM_KEY]: 'premium',
});

/** Longest request target answered; longer ones get 414 before any parsing. */
const MAX_URL_LENGTH = 8192;

function firstHeader(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function createCatalogueServer(options: CatalogueServerOptions): Promise<CatalogueServer> {
  const catalogue = await loadCatalogue(options.dir);
  const keys = options.keys ?? { ...SANDBOX_KEYS };
  const cursors = options.cursors ?? true;
  const requests: RequestRecord[] = [];

  // Every failure is answered inside (a 500 at worst), so the promise never rejects.
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = process.hrtime.bigint();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const record: RequestRecord = {
      method: req.method ?? '',
      path: q === -1 ? rawUrl : rawUrl.slice(0, q),
      query: q === -1 ? '' : rawUrl.slice(q + 1),
      status: 0,
      hadKey: req.headers['x-api-key'] !== undefined,
    };
    const range = firstHeader(req, 'range');
    const ifRange = firstHeader(req, 'if-range');
    if (range !== undefined) record.range = range;
    if (ifRange !== undefined) record.ifRange = ifRange;

    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      record.status = res.statusCode;
      requests.push(record);
      if (options.log) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The key travels in a header, so the path and query hold no secret.
        options.log(`${record.method} ${escapeUnsafe(rawUrl.slice(0, 500))} ${record.status} ${ms.toFixed(1)}ms`);
      }
    };
    res.on('finish', finish);
    res.on('close', finish);

    try {
      if (options.intercept && (await options.intercept(req, res))) return;
      if (rawUrl.length > MAX_URL_LENGTH) throw new HttpError(414, 'bad_request', 'The request URL is too long.');
      await route(req, res, { catalogue, keys, cursors });
    } catch (err) {
      const httpError = err instanceof HttpError ? err : new HttpError(500, 'internal_error', 'The server failed to answer this request.');
      if (!res.headersSent) sendError(res, httpError);
      else res.destroy();
    }
  };
  const server = createServer((req, res) => void handle(req, res));

  // A request node cannot even parse (bad request line, headers too large) gets a plain 400/431.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });

  const { port, url } = await listenOn(server, options.host ?? '127.0.0.1', options.port ?? 0);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    requests,
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
