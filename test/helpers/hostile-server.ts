/**
 * A hostile exercise service for the test suites under test/hostile: one node:http server on
 * 127.0.0.1 and an ephemeral port whose answers are whatever a test routes to it. The attacks
 * below are the ways a server can hurt a client: answers nested too deep or too long, escape
 * sequences and bidi controls in cursors, ids and names, bytes dripped forever, absurd
 * Retry-After values, connections cut after a little each, ids that are one file on some file
 * systems, media with no length sent slowly, the key echoed back, a PNG that never ends.
 * The server counts each request and each body byte it sent, so a test can bound both.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

/** One way of answering a request. */
export type Attack = (req: IncomingMessage, res: ServerResponse, server: HostileServer) => void | Promise<void>;

export interface HostileServer {
  /** http://127.0.0.1:<port>, for --base-url. */
  readonly url: string;
  readonly port: number;
  /** Every request, in order of arrival. */
  readonly requests: SeenRequest[];
  /** Body bytes written by the attacks (through send/drip/endless/cutEach). */
  bytesSent: number;
  /** Answers requests whose path (query included) matches `pattern` with `attack`; later routes win. */
  route(pattern: RegExp, attack: Attack): void;
  /** Forgets the routes, requests and byte count. */
  reset(): void;
  /** Requests whose path matches. */
  count(pattern: RegExp): number;
  close(): Promise<void>;
}

/** Hostile text: each would act on a terminal if printed raw. */
export const HOSTILE = {
  /** Retitles the terminal. */
  osc: '\u001b]0;pwned\u0007',
  /** Clears the screen and paints red. */
  csi: '\u001b[2J\u001b[31m',
  /** The 8-bit CSI (U+009B) and another C1 control (U+0085, next line). */
  c1: '\u009b2J\u0085',
  /** Right-to-left override: "gnp.exe" shows as "exe.png". */
  bidi: '\u202egnp.exe',
} as const;
/** All of them at once. */
export const HOSTILE_TEXT = `${HOSTILE.osc}${HOSTILE.csi}${HOSTILE.c1}${HOSTILE.bidi}`;
/** Any character of the attacks above that should never reach a terminal or a file name: ESC, BEL, C1, bidi controls. */
export const TERMINAL_UNSAFE = /[\u0007\u001b\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `size` bytes starting with the PNG signature, the rest a pattern (so a cut or a splice shows). */
export function pngBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  PNG_SIGNATURE.copy(bytes);
  for (let i = PNG_SIGNATURE.length; i < size; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return bytes;
}

export async function startHostileServer(): Promise<HostileServer> {
  let routes: Array<[RegExp, Attack]> = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hostile.requests.push({ path, headers: req.headers });
    const found = [...routes].reverse().find(([pattern]) => pattern.test(path));
    const attack = found?.[1] ?? json({ error: { code: 'not_found', message: `No route for ${path}` } }, { status: 404 });
    Promise.resolve(attack(req, res, hostile)).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const hostile: HostileServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    bytesSent: 0,
    route(pattern, attack) {
      routes.push([pattern, attack]);
    },
    reset() {
      routes = [];
      hostile.requests.length = 0;
      hostile.bytesSent = 0;
    },
    count(pattern) {
      return hostile.requests.filter((r) => pattern.test(r.path)).length;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return hostile;
}

// ── Attacks ─────────────────────────────────────────────────────────────────────────────

interface AnswerOptions {
  status?: number;
  headers?: Record<string, string | number>;
}

/** A whole answer at once, with its Content-Length. */
export function send(body: Buffer | string, options: AnswerOptions & { contentType?: string } = {}): Attack {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return (_req, res, server) => {
    res.writeHead(options.status ?? 200, { 'content-type': options.contentType ?? 'application/json', 'content-length': bytes.length, ...options.headers });
    server.bytesSent += bytes.length;
    res.end(bytes);
  };
}

/** JSON: a value, or a string sent as it is (for text JSON.stringify cannot make). */
export function json(body: unknown, options: AnswerOptions = {}): Attack {
  return send(typeof body === 'string' ? body : JSON.stringify(body), options);
}

/** A record, well formed but for an unknown field nested `depth` levels deep (built as text: no recursion here either). */
export function deepRecord(id: string, depth: number): Attack {
  return json(`{"id":${JSON.stringify(id)},"name":"Deep","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`);
}

/** A list page (spec §2.3) of these summaries, then this pagination. */
export function listPage(exercises: unknown[], pagination: Record<string, unknown> = { total: exercises.length, next: null }): Attack {
  return json({ exercises, pagination });
}

/** `count` summaries, ids `E0`, `E1`, …: a page far past any limit asked for. */
export function manySummaries(count: number): Array<{ id: string; name: string }> {
  return Array.from({ length: count }, (_, i) => ({ id: `E${i}`, name: `Exercise ${i}` }));
}

/**
 * Headers at once, then the body one byte every `everyMs`, forever or until `body` is out
 * (and the answer is never ended): every idle timeout is reset by each byte.
 */
export function drip(everyMs: number, options: { body?: Buffer | string; contentType?: string; contentLength?: number } = {}): Attack {
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  return (req, res, server) => {
    res.writeHead(200, {
      'content-type': options.contentType ?? 'application/json',
      ...(options.contentLength !== undefined ? { 'content-length': options.contentLength } : {}),
    });
    res.flushHeaders();
    let i = 0;
    const timer = setInterval(() => {
      if (body && i >= body.length) return;
      server.bytesSent += 1;
      res.write(body ? body.subarray(i, i + 1) : ' ');
      i++;
    }, everyMs);
    const stop = (): void => clearInterval(timer);
    res.on('close', stop);
    req.on('close', stop);
  };
}

/** A status (429 by default) asking the client to wait `seconds` before trying again. */
export function retryAfter(seconds: number | string, status = 429, contentType = 'application/json'): Attack {
  return send(JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down.' } }), { status, contentType, headers: { 'retry-after': String(seconds) } });
}

/**
 * Media `body`, honouring Range, but each connection gets at most `perConnection` bytes and is
 * then cut: every attempt brings new bytes, so "an attempt that brought bytes is free" never ends.
 */
export function cutEach(body: Buffer, perConnection: number, contentType = 'image/png'): Attack {
  return (req, res, server) => {
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = range ? Number(range[1]) : 0;
    // A validator, so the client may resume with Range: each connection then brings new bytes.
    const headers: Record<string, string | number> = {
      'content-type': contentType,
      'content-length': body.length - from,
      'accept-ranges': 'bytes',
      etag: '"v1"',
    };
    if (range) headers['content-range'] = `bytes ${from}-${body.length - 1}/${body.length}`;
    res.writeHead(range ? 206 : 200, headers);
    const part = body.subarray(from, from + perConnection);
    server.bytesSent += part.length;
    res.write(part, () => setTimeout(() => res.socket?.destroy(), 20));
  };
}

/**
 * Media with no Content-Length (chunked), `chunk` bytes every `everyMs`, ended cleanly: the
 * only shape of a length-less body the client may accept.
 */
export function slowChunked(body: Buffer, chunk: number, everyMs: number, contentType = 'image/png'): Attack {
  return (req, res, server) => {
    res.writeHead(200, { 'content-type': contentType });
    let at = 0;
    const timer = setInterval(() => {
      const part = body.subarray(at, at + chunk);
      at += part.length;
      server.bytesSent += part.length;
      if (at >= body.length) {
        clearInterval(timer);
        res.end(part);
      } else res.write(part);
    }, everyMs);
    const stop = (): void => clearInterval(timer);
    res.on('close', stop);
    req.on('close', stop);
  };
}

/** An error answer quoting the request's own X-API-Key back, in our JSON error shape or as plain text. */
export function echoKey(status: number, shape: 'json' | 'text' | 'json-escaped'): Attack {
  return (req, res, server) => {
    const key = String(req.headers['x-api-key'] ?? '');
    const message = `Key ${key} is not allowed here (key=${key}).`;
    // json-escaped: every character of the key as a \uXXXX escape, whole only once the JSON is decoded.
    const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const body =
      shape === 'json'
        ? JSON.stringify({ error: { code: 'denied', message } })
        : shape === 'json-escaped'
          ? `{"error":{"code":"denied","message":"Key ${escaped} is not allowed here."}}`
          : message;
    void send(body, { status, contentType: shape === 'text' ? 'text/plain' : 'application/json' })(req, res, server);
  };
}

/** A body that never ends: `first` then the same chunk again and again, as fast as the client reads. */
export function endless(first: Buffer, contentType = 'image/png', contentLength?: number): Attack {
  return (req, res, server) => {
    res.writeHead(200, { 'content-type': contentType, ...(contentLength !== undefined ? { 'content-length': contentLength } : {}) });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    let stopped = false;
    res.on('close', () => (stopped = true));
    server.bytesSent += first.length;
    res.write(first);
    const pump = (): void => {
      while (!stopped) {
        server.bytesSent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };
}
