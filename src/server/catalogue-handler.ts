/**
 * The catalogue server's request handler: every request to the service interface (spec §4)
 * answered from a catalogue directory, with a record of each request. The same handler runs
 * behind a socket (catalogue-server.ts: `serve`, the tests) and with no socket at all
 * (in-process.ts: --sandbox and --catalogue), so both answer alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Catalogue, CatalogueError, type LineSpan, readCatalogue } from '../catalogue/load.js';
import { catalogueVersion, openRecordIndex, writeRecordIndex } from './record-index.js';
import { firstValue, sendFailure } from './http-error.js';
import type { Plan } from './records.js';
import { checkRequest, route } from './router.js';
import { escapeUnsafe } from '../util/text.js';
import { SANDBOX_FREE_KEY, SANDBOX_PREMIUM_KEY } from '../defaults.js';

export interface CatalogueHandlerOptions {
  dir: string;
  /** API keys and their plans; default SANDBOX_KEYS (the public sandbox key of each plan). */
  keys?: Record<string, Plan>;
  /** false → pagination is only { total }, like a service that sends no cursors. */
  cursors?: boolean;
  /** false → answers carry no ETag: for a client that never revalidates (in-process.ts). Default true, as the service sends them. */
  etags?: boolean;
  /** The record index's directory (record-index.ts), in-process: the whole catalogue is then read only when a listing needs it. */
  recordIndexDir?: string;
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

export const SANDBOX_KEYS: Readonly<Record<string, Plan>> = Object.freeze({
  [SANDBOX_FREE_KEY]: 'free',
  [SANDBOX_PREMIUM_KEY]: 'premium',
});

export interface CatalogueHandler {
  /**
   * Answers one request; every failure is answered inside (a 500 at worst), so it never rejects,
   * but for a catalogue found broken only now (read whole after its record index: in-process).
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Every request answered so far, in order. */
  requests: RequestRecord[];
  /** Whether the whole catalogue has been read (a record index may spare it), for tests. */
  readWhole(): boolean;
}

/** Loads the catalogue in `options.dir` and gives the handler answering from it. */
export async function createCatalogueHandler(options: CatalogueHandlerOptions): Promise<CatalogueHandler> {
  const { recordIndexDir } = options;
  const index = recordIndexDir !== undefined ? openRecordIndex(recordIndexDir, options.dir) : undefined;
  let loaded: Catalogue | undefined;
  /** The whole catalogue, loaded on first use; its record index written then, when one is kept. */
  const whole = (): Catalogue => {
    if (loaded) return loaded;
    if (recordIndexDir === undefined) return (loaded = readCatalogue(options.dir));
    const version = catalogueVersion(options.dir);
    const spans = new Map<string, LineSpan>();
    loaded = readCatalogue(options.dir, spans);
    if (!index) writeRecordIndex(recordIndexDir, loaded, spans, version);
    return loaded;
  };
  // Without a usable index (always for `serve`), loaded now: a broken catalogue fails `serve`'s start, or the first request.
  if (!index) whole();
  const keys = options.keys ?? { ...SANDBOX_KEYS };
  const cursors = options.cursors ?? true;
  const etags = options.etags ?? true;
  const requests: RequestRecord[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = process.hrtime.bigint();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const record: RequestRecord = {
      method: req.method ?? '',
      path: q === -1 ? rawUrl : rawUrl.slice(0, q),
      query: q === -1 ? '' : rawUrl.slice(q + 1),
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
      checkRequest(req);
      await route(req, res, { catalogue: whole, ...(index ? { records: index } : {}), keys, cursors, etags });
    } catch (err) {
      // A catalogue changed under an index and now broken: said as a broken catalogue is at the start.
      if (err instanceof CatalogueError) throw err;
      sendFailure(res, err, 'The server failed to answer this request.');
    }
  };
  return { handle, requests, readWhole: () => loaded !== undefined };
}
