/**
 * The layers of src/, bottom to top, as docs/design.md "Layers" describes them. A file may
 * import (statically, dynamically, or for its types alone) only from its own layer or a lower
 * one, and no import may close a circle. `npm run lint:deps` checks both; .ci/run runs it.
 *
 * Where the four top-level files sit:
 * - src/context.ts (the Context type every command and renderer receives) and
 *   src/connection.ts (where a run's requests go) form the "run" layer: above api/ and
 *   server/ (a connection may start the catalogue server; the Context carries the API
 *   client), below output/ and the domain modules that take a Context.
 * - src/factory.ts (builds the Context), src/json-flag.ts (argv rewriting before commander)
 *   and src/cli.ts are the wiring at the top, beside nothing.
 */
const LAYERS = [
  { name: 'util', paths: ['^src/util/', '^src/errors\\.ts$'] },
  { name: 'catalogue', paths: ['^src/catalogue/'] },
  { name: 'config-cache', paths: ['^src/config/', '^src/cache/'] },
  { name: 'http-server', paths: ['^src/http/', '^src/server/'] },
  { name: 'api', paths: ['^src/api/'] },
  { name: 'run', paths: ['^src/context\\.ts$', '^src/connection\\.ts$'] },
  { name: 'domain', paths: ['^src/output/', '^src/media/', '^src/mirror/', '^src/completion/', '^src/prompt/'] },
  { name: 'commands', paths: ['^src/commands/'] },
  { name: 'cli', paths: ['^src/cli\\.ts$', '^src/factory\\.ts$', '^src/json-flag\\.ts$'] },
];

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} imports only from its own layer or below (${LAYERS.slice(0, i + 1)
    .map((l) => l.name)
    .join(', ')})`,
  severity: 'error',
  from: { path: layer.paths },
  to: { path: LAYERS.slice(i + 1).flatMap((l) => l.paths) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files that import each other in a loop cannot be read (or loaded) one before the other.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'every-file-in-a-layer',
      comment: 'A file under src/ outside every layer is checked by no rule: give it a layer here.',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.flatMap((l) => l.paths) },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from a higher layer is as much a dependency as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
