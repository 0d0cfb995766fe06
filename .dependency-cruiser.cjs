/**
 * The layers of src/, bottom to top, as docs/design.md "Layers" describes them. A file may
 * import (statically, dynamically, or for its types alone) only from its own layer or a lower
 * one, and no import may close a circle. `npm run lint:deps` checks both; .ci/run runs it.
 *
 * src/defaults.ts (every default and bound, values only) sits with util/.
 *
 * Where the other top-level files sit:
 * - src/context.ts (the Context type every command and renderer receives) and
 *   src/connection.ts (where a run's requests go) form the "run" layer: above api/ and
 *   server/ (a connection may start the catalogue server; the Context carries the API
 *   client), below output/ and the domain modules that take a Context.
 * - src/factory.ts (builds the Context), src/json-flag.ts (argv rewriting before commander)
 *   and src/cli.ts are the wiring at the top, beside nothing.
 *
 * src/vendor/ is the bottom layer: one loader per heavy package, the only import() of a
 * package in src/ (see VENDOR_RULES below). It imports nothing of ours.
 */
const LAYERS = [
  { name: 'vendor', paths: ['^src/vendor/'] },
  { name: 'util', paths: ['^src/util/', '^src/errors\\.ts$', '^src/defaults\\.ts$'] },
  { name: 'catalogue', paths: ['^src/catalogue/'] },
  { name: 'config-cache', paths: ['^src/config/', '^src/cache/'] },
  { name: 'http-server', paths: ['^src/http/', '^src/server/'] },
  { name: 'api', paths: ['^src/api/'] },
  // The team proxy (serve --upstream) sits above the client: it may use the client's cache policy.
  { name: 'proxy', paths: ['^src/proxy/'] },
  { name: 'run', paths: ['^src/context\\.ts$', '^src/connection\\.ts$'] },
  { name: 'domain', paths: ['^src/output/', '^src/media/', '^src/mirror/', '^src/completion/', '^src/prompt/'] },
  { name: 'commands', paths: ['^src/commands/'] },
  { name: 'cli', paths: ['^src/cli\\.ts$', '^src/factory\\.ts$'] },
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

/**
 * The packages scripts/bundle.mjs puts in vendor files of their own (its VENDOR table), loaded
 * only through src/vendor/: a static import would load them on every start. Keep in step with
 * that table.
 */
const HEAVY_PACKAGES = [
  'undici',
  'conf',
  'chalk',
  'cli-table3',
  'string-width',
  'read',
  '@inquirer/search',
  'pngjs',
  'http-cache-semantics',
  'prom-client',
  'ioredis',
];
const escaped = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Laziness lives in one place. The bundle is one file of our own code, so an import() of our
 * own module saves only the evaluation of its top-level declarations (and a built-in is
 * required on first use by the bundle anyway, LAZY_BUILTINS in scripts/bundle.mjs); heavy
 * packages are loaded through src/vendor/, each from a vendor file of its own.
 * dependency-cruiser keeps one dependency per module and file: a file that names a package in
 * a type (`typeof import('x')`) before it calls import('x') shows only the type, so these
 * rules see an import() only where it is the first mention (scripts/bundle.mjs still refuses
 * a static import of a vendor package at build time).
 */
const VENDOR_RULES = [
  {
    name: 'package-import-call-only-in-vendor',
    comment: 'import() of a package is only in src/vendor/ (one loader per package): call its loader, e.g. loadUndici() from src/vendor/load.ts.',
    severity: 'error',
    from: { path: '^src/', pathNot: ['^src/vendor/'] },
    to: { path: '(^|/)node_modules/', dependencyTypes: ['dynamic-import'] },
  },
  {
    name: 'no-static-heavy-package',
    comment: 'A heavy package (scripts/bundle.mjs VENDOR) is imported for its types only; its code through its loader in src/vendor/.',
    severity: 'error',
    from: { path: '^src/' },
    to: {
      path: `(^|/)node_modules/(${HEAVY_PACKAGES.map(escaped).join('|')})/`,
      dependencyTypesNot: ['type-only', 'type-import', 'dynamic-import'],
    },
  },
  {
    name: 'no-vendor-import-from-src-root',
    comment:
      "scripts/bundle.mjs leaves every './vendor/…' specifier to be required at run time (its vendor .cjs files), so a file directly in src/ cannot import src/vendor/ by that path: import the loader from a module in a folder.",
    severity: 'error',
    from: { path: '^src/[^/]+$' },
    to: { path: '^src/vendor/' },
  },
  {
    name: 'own-modules-imported-statically',
    comment: 'Our own modules and built-ins are imported statically (at the top of the file), never with import().',
    severity: 'error',
    from: { path: '^src/' },
    to: { pathNot: '(^|/)node_modules/', dependencyTypes: ['dynamic-import'] },
  },
];

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
    {
      // The rule above sees only files that import something; these two close the gap: a file
      // outside every layer that nothing imports and imports nothing, or one that is imported.
      name: 'every-orphan-in-a-layer',
      comment: 'A file under src/ outside every layer is checked by no rule: give it a layer here.',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: LAYERS.flatMap((l) => l.paths) },
      to: {},
    },
    {
      name: 'every-import-into-a-layer',
      comment: 'A file under src/ outside every layer is checked by no rule: give it a layer here.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: LAYERS.flatMap((l) => l.paths) },
    },
    ...layerRules,
    ...VENDOR_RULES,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from a higher layer is as much a dependency as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
