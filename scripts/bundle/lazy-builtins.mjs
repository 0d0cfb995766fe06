/**
 * Start-up only (docs/development.md "How start-up works"). Built-ins that our modules (and
 * commander) import at load but most commands never call: requiring them at start costs ~9 ms
 * on every run (node:crypto ~4 ms, node:child_process ~2 ms, node:fs/promises ~1.5 ms,
 * node:tty ~1.3 ms, node:http, node:readline, node:dns for the server, the prompt and the
 * loopback check; `--help` calls none of them, a cache hit only node:crypto). A static import
 * or require() of one becomes an object of getters with the built-in's export names (read
 * here, at build time, from the same Node): the built-in is required on the first property
 * read, so the same functions are called, just loaded when first used. No source is edited:
 * commander's `require('node:child_process')` (used only for executable subcommands, which
 * this CLI has none of) gets the same object.
 */
export const LAZY_BUILTINS = ['node:crypto', 'node:fs/promises', 'node:tty', 'node:child_process', 'node:dns', 'node:http', 'node:readline'];

const KINDS = new Set(['import-statement', 'require-call']);

export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      // The getter module's own require() of the built-in is the real one.
      if (args.namespace === 'lazy-builtin' || !KINDS.has(args.kind) || !LAZY_BUILTINS.includes(args.path)) return undefined;
      return { path: args.path, namespace: 'lazy-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const names = Object.keys(await import(args.path)).filter((name) => name !== 'default');
      const contents = `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
Object.defineProperty(exports, 'default', { enumerable: true, get: load });`;
      return { contents, loader: 'js' };
    });
  },
};
