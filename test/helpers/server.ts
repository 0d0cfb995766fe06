/**
 * Starts the project's catalogue server for a test, on 127.0.0.1 with an ephemeral port,
 * over the shipped sample catalogue unless told otherwise: the product's request handler behind
 * an HTTP server of the test's own, which records every request and may answer one itself
 * (`intercept`, for faults). Tests close it themselves (afterAll / afterEach).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createCatalogueHandler } from '../../src/server/catalogue-handler.js';
import { type CatalogueServer as ProductServer, type CatalogueServerOptions as ProductOptions, serveRequests } from '../../src/server/catalogue-server.js';
import { firstValue } from '../../src/server/http-error.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';

export const FREE_KEY = 'sandbox-free';
export const PREMIUM_KEY = 'sandbox-premium';

/** One request the server answered (or the intercept did), as the test sees it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  status: number;
  range?: string;
  ifRange?: string;
  hadKey: boolean;
}

export interface CatalogueServerOptions extends ProductOptions {
  /** Runs before the catalogue's handler: return true when it answered the request (a fault, say). */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface CatalogueServer extends ProductServer {
  /** Every request answered so far, in order. */
  requests: RequestRecord[];
}

export async function startServer(options: Partial<CatalogueServerOptions> = {}): Promise<CatalogueServer> {
  const { intercept, host = '127.0.0.1', port = 0, ...handlerOptions } = options;
  const handle = await createCatalogueHandler({ dir: sampleCatalogueDir(), ...handlerOptions });
  const requests: RequestRecord[] = [];
  const recorded = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const record: RequestRecord = {
      method: req.method ?? '',
      path: q === -1 ? target : target.slice(0, q),
      query: q === -1 ? '' : target.slice(q + 1),
      status: 0,
      range: firstValue(req.headers.range),
      ifRange: firstValue(req.headers['if-range']),
      hadKey: req.headers['x-api-key'] !== undefined,
    };
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      record.status = res.statusCode;
      requests.push(record);
    };
    res.on('finish', finish);
    res.on('close', finish);
    if (intercept && (await intercept(req, res))) return;
    await handle(req, res);
  };
  return { ...(await serveRequests(recorded, host, port)), requests };
}
