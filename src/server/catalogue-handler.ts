/**
 * The catalogue server's request handler: every request to the service interface (spec §4)
 * answered from a catalogue directory. The same handler runs behind a socket
 * (catalogue-server.ts: `serve`, the tests) and with no socket at all (in-process.ts: --sandbox
 * and --catalogue), so both answer alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Catalogue, CatalogueError, readCatalogue } from '../catalogue/load.js';
import { type RecordIndex, catalogueVersion, openRecordIndex, writeRecordIndex } from './record-index.js';
import { sendFailure } from './http-error.js';
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
  /** One line per request: method, path, status, milliseconds. Never the key. */
  log?: (line: string) => void;
}

export const SANDBOX_KEYS: Readonly<Record<string, Plan>> = Object.freeze({
  [SANDBOX_FREE_KEY]: 'free',
  [SANDBOX_PREMIUM_KEY]: 'premium',
});

/**
 * Answers one request; every failure is answered inside (a 500 at worst), so it never rejects,
 * but for a catalogue found broken only now (read whole after its record index: in-process).
 */
export type CatalogueHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The catalogue in `dir`, read on first use and again once exercises.jsonl has changed: a record is
 * read back from its line, so a file replaced (as `mirror` replaces it) is followed. `onRead` is told
 * of each read, with the version of the file read.
 */
export function followCatalogue(dir: string, onRead?: (catalogue: Catalogue, version: string | undefined) => void): () => Catalogue {
  let loaded: { catalogue: Catalogue; version: string | undefined } | undefined;
  return () => {
    const version = catalogueVersion(dir);
    if (loaded && loaded.version === version) return loaded.catalogue;
    const catalogue = readCatalogue(dir);
    onRead?.(catalogue, version);
    loaded = { catalogue, version };
    return catalogue;
  };
}

/** Loads the catalogue in `options.dir` and gives the handler answering from it. */
export async function createCatalogueHandler(options: CatalogueHandlerOptions): Promise<CatalogueHandler> {
  const { recordIndexDir } = options;
  let loaded = false;
  /** The record index (in-process), opened on the first single record asked for; null: none usable. */
  let index: RecordIndex | null | undefined;
  const records = (): RecordIndex | undefined => {
    if (loaded || recordIndexDir === undefined) return undefined;
    index ??= openRecordIndex(recordIndexDir, options.dir) ?? null;
    return index ?? undefined;
  };
  // The whole catalogue; its record index written once it is read, unless one was found usable.
  const whole = followCatalogue(options.dir, (catalogue, version) => {
    if (recordIndexDir !== undefined && !index) writeRecordIndex(recordIndexDir, catalogue, version);
    [index, loaded] = [undefined, true];
  });
  // `serve` loads it now: a broken catalogue fails its start. In-process, the first request does.
  if (recordIndexDir === undefined) whole();
  const keys = options.keys ?? { ...SANDBOX_KEYS };
  const cursors = options.cursors ?? true;
  const etags = options.etags ?? true;
  const { log } = options;

  return async (req, res) => {
    if (log) {
      const started = process.hrtime.bigint();
      res.on('close', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The key travels in a header, so the path and query hold no secret.
        log(`${req.method ?? ''} ${escapeUnsafe((req.url ?? '/').slice(0, 500))} ${res.statusCode} ${ms.toFixed(1)}ms`);
      });
    }
    try {
      checkRequest(req);
      await route(req, res, { catalogue: whole, records, keys, cursors, etags });
    } catch (err) {
      // In-process, a catalogue changed under its index and now broken is said as a broken catalogue is at the start.
      if (err instanceof CatalogueError && recordIndexDir !== undefined) throw err;
      sendFailure(res, err, 'The server failed to answer this request.');
    }
  };
}
