/**
 * What the downloader suites (download-file, download-bounds, download-race) share: a media
 * catalogue served over real HTTP on 127.0.0.1 with a fault hook, one Transport to it, the
 * hooks that start and stop both, and the targets and request counts the tests ask about.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Transport } from '../../src/http/transport.js';
import type { MediaTarget } from '../../src/media/download-file.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { type MediaCatalogue, type MediaExercise, makeMediaCatalogue } from './media-catalogue.js';

/** Runs before the server's own handling; returns true if it answered the request. */
export type Intercept = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface DownloadServer {
  readonly catalogue: MediaCatalogue;
  /** The running server (from beforeAll on). */
  readonly server: CatalogueServer;
  /** A Transport to it with the premium key and no retries of its own. */
  readonly transport: Transport;
  /** The fault for the current test; reset after each. */
  intercept: Intercept | undefined;
  /** The download target of an exercise's image or video, with its message name. */
  target(kind: 'image' | 'video', exercise: string, name: string): MediaTarget;
  /** The media requests the server has seen since the last test. */
  mediaRequests(): CatalogueServer['requests'];
}

/**
 * Registers the suite's hooks (call at the top of a test file): the catalogue of `exercises`
 * served with a fault hook, and a transport to it with `timeoutMs`.
 */
export function useDownloadServer(exercises: MediaExercise[], options: { timeoutMs: number }): DownloadServer {
  const catalogue = makeMediaCatalogue(exercises);
  let server: CatalogueServer | undefined;
  let transport: Transport | undefined;
  const setup: DownloadServer = {
    catalogue,
    get server() {
      if (!server) throw new Error('The download server starts in beforeAll.');
      return server;
    },
    get transport() {
      if (!transport) throw new Error('The transport is made in beforeAll.');
      return transport;
    },
    intercept: undefined,
    target(kind, exercise, name) {
      const path = kind === 'image' ? `/images/${exercise}/premium/${name}.png` : `/videos/${exercise}/premium/${name}.mp4`;
      return { kind, url: new URL(path, setup.server.url), what: `${kind} "${name}" of exercise ${exercise}` };
    },
    mediaRequests: () => setup.server.requests.filter((r) => /^\/(images|videos)\//.test(r.path)),
  };
  beforeAll(async () => {
    server = await startServer({
      dir: catalogue.dir,
      intercept: (req, res) => (setup.intercept ? setup.intercept(req, res) : false),
    });
    transport = new Transport({ baseUrl: server.url, apiKey: PREMIUM_KEY, settings: { timeout: options.timeoutMs, retries: 0 } });
  });
  afterAll(async () => {
    await transport?.close();
    await server?.close();
  });
  afterEach(() => {
    setup.intercept = undefined;
    server?.requests.splice(0);
  });
  return setup;
}
