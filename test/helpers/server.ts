/**
 * Starts the project's catalogue server for a test, on 127.0.0.1 with an ephemeral port,
 * over the shipped sample catalogue unless told otherwise. Tests close it themselves
 * (afterAll / afterEach); nothing global is registered here.
 */
import { createCatalogueServer, type CatalogueServer, type CatalogueServerOptions } from '../../src/server/catalogue-server.js';
import { sampleCatalogueDir } from '../../src/server/sandbox.js';

export type { CatalogueServer, CatalogueServerOptions } from '../../src/server/catalogue-server.js';

export const FREE_KEY = 'sandbox-free';
export const PREMIUM_KEY = 'sandbox-premium';

export function startServer(options: Partial<CatalogueServerOptions> = {}): Promise<CatalogueServer> {
  return createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0, ...options });
}
