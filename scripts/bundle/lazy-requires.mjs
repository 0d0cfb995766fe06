/**
 * The CLI's lazy import()s of vendor packages (all in src/vendor/) become require()s of the
 * vendor files under dist/bundle/vendor/, run only when reached, so the bundle holds none of
 * their code (docs/performance.md: what that buys). A static import of a vendor package would
 * put it in the bundle itself, so the build fails on one.
 */

/**
 * `vendorOf`: specifier → vendor file name; `esmExports`: specifier → its export names, for
 * the ES modules among them (an import() of one must give a namespace, of a CommonJS one
 * module.exports as default, as Node's own import() would).
 */
export function lazyRequires(vendorOf, esmExports) {
  /** The module an import() of `specifier` (a vendor module) is bundled as. */
  const vendorStub = (specifier) => {
    const load = `require(${JSON.stringify(`./vendor/${vendorOf.get(specifier)}.cjs`)})[${JSON.stringify(specifier)}]`;
    const names = esmExports.get(specifier);
    if (names === undefined) return `module.exports = ${load};`;
    return `const ns = ${load};\nexport default ns.default;\n${names.length > 0 ? `export const { ${names.join(', ')} } = ns;` : ''}`;
  };
  return {
    name: 'lazy-requires',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        if (vendorOf.has(args.path)) return { path: args.path, namespace: 'vendor' };
        return undefined;
      });
      b.onResolve({ filter: /.*/ }, (args) => {
        if (vendorOf.has(args.path) && args.kind !== 'dynamic-import') {
          throw new Error(`${args.path} is imported statically by ${args.importer}; the bundle expects it to be imported lazily (src/vendor/).`);
        }
        return undefined;
      });
      b.onResolve({ filter: /^\.\/vendor\/[^/]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({ contents: vendorStub(args.path), loader: 'js' }));
    },
  };
}
