/**
 * An esbuild plugin: cacache requires @npmcli/fs for two helpers (moveFile, withTempDir); its
 * index also loads a cp polyfill and semver at require time. A vendor build points cacache at
 * the two modules it uses (measured in bench/cache-load.mjs). Start-up only (docs/development.md "How start-up works"). Used by scripts/bundle.mjs for
 * the vendor files and by the bench for the builds it compares, so both build the same thing.
 */
import { fileURLToPath } from 'node:url';

/** Resolves @npmcli/fs's two modules from the package root. */
const root = fileURLToPath(new URL('../..', import.meta.url));

export const npmcliFsShim = {
  name: 'npmcli-fs-shim',
  setup(b) {
    b.onResolve({ filter: /^@npmcli\/fs$/ }, () => ({ path: 'npmcli-fs', namespace: 'npmcli-fs-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'npmcli-fs-shim' }, () => ({
      contents: "module.exports = { moveFile: require('@npmcli/fs/lib/move-file.js'), withTempDir: require('@npmcli/fs/lib/with-temp-dir.js') };",
      resolveDir: root,
      loader: 'js',
    }));
  },
};
