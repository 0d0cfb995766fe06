/** The catalogue server's public surface (see src/server/catalogue-server.ts). */
export { createCatalogueServer, SANDBOX_KEYS } from './catalogue-server.js';
export type { CatalogueServer, CatalogueServerOptions, Plan, RequestRecord } from './catalogue-server.js';
export { CatalogueError, loadCatalogue } from './catalogue.js';
export { sampleCatalogueDir, startSandbox } from './sandbox.js';
