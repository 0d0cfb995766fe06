/** Small HTTP helpers for the server tests: raw paths (no URL normalisation), raw sockets, an in-process GET. */
import { request } from 'node:http';
import { connect } from 'node:net';
import type { CatalogueServer } from '../helpers/server.js';
import { PREMIUM_KEY } from '../helpers/server.js';
import type { InProcessDispatcher } from '../../src/server/in-process.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: () => any;
}

/**
 * GET (or another method) with the path sent exactly as given: unlike fetch, node:http does
 * not resolve `..` or `%2e%2e`, so path-escape attempts reach the server intact.
 * `key: null` sends no X-API-Key.
 */
export function get(
  server: CatalogueServer,
  path: string,
  options: { key?: string | null; headers?: Record<string, string>; method?: string } = {},
): Promise<RawResponse> {
  const key = options.key === undefined ? PREMIUM_KEY : options.key;
  const headers: Record<string, string> = { ...(key !== null ? { 'X-API-Key': key } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** JSON body of a 200 answer, failing loudly with the body otherwise. */
export async function getJson(server: CatalogueServer, path: string, options?: Parameters<typeof get>[2]): Promise<any> {
  const res = await get(server, path, options);
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${res.text}`);
  return res.json();
}

/** Sends bytes over a plain socket and returns whatever comes back before the server closes or 2 s pass. */
export function rawExchange(server: CatalogueServer, payload: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => (chunks.length ? undefined : reject(err)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(payload);
  });
}

/** The error body of a non-2xx JSON answer, checked for the docs/design.md shape. */
export function errorOf(res: RawResponse): { code: string; message: string; parameter?: string } {
  const body = res.json();
  if (!body || typeof body.error !== 'object' || typeof body.error.code !== 'string' || typeof body.error.message !== 'string') {
    throw new Error(`not an error body: ${res.text}`);
  }
  return body.error;
}

/** One GET through an in-process dispatcher's dispatch(), as the transport sends every request; the answer collected whole. */
export function dispatchGet(
  local: Pick<InProcessDispatcher, 'dispatch'>,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let head: { statusCode: number; headers: Record<string, string | string[] | undefined> } = { statusCode: 0, headers: {} };
    local.dispatch(
      { path, method: 'GET', headers },
      {
        onResponseStart: (_c, statusCode, responseHeaders) => void (head = { statusCode, headers: responseHeaders }),
        onResponseData: (_c, chunk) => void chunks.push(chunk),
        onResponseEnd: () => resolve({ ...head, body: Buffer.concat(chunks) }),
        onResponseError: (_c, err) => reject(err),
      },
    );
  });
}
