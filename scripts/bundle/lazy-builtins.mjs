/**
 * Start-up only (docs/development.md "How start-up works"). Built-ins that our modules (and
 * commander) import at load but most commands never call: requiring them at start costs ~9 ms
 * on every run (node:crypto ~4 ms, node:child_process ~2 ms, node:fs/promises ~1.5 ms,
 * node:tty ~1.3 ms, node:http, node:readline, node:dns for the server, the prompt and the
 * loopback check; `--help` calls none of them, a cache hit only node:crypto). A static import
 * or require() of one becomes an object of getters with the built-in's export names (read
 * here, at build time, from the same Node): the built-in is required on the first property
 * read, so the same functions are called, just loaded when first used. Every other built-in
 * our modules import by name gets the same getter object, for its names alone (loaded on first
 * use too, which for node:fs or node:path changes nothing: Node has them loaded already).
 * No source is edited:
 * commander's `require('node:child_process')` (used only for executable subcommands, which
 * this CLI has none of) gets the same object.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const LAZY_BUILTINS = ['node:crypto', 'node:fs/promises', 'node:tty', 'node:child_process', 'node:dns', 'node:http', 'node:readline'];

const KINDS = new Set(['import-statement', 'require-call']);

/** Required by a dependency inside the bundle (commander), whose use of it cannot be read here: every name kept. */
const REQUIRED_BY_DEPENDENCIES = new Set(['node:child_process']);

/**
 * The names our compiled modules (under `distDir`) import from `specifier`, or undefined when
 * any of them takes it whole (`import * as`, a default import): then every export is kept.
 * esbuild copies a CommonJS module's exports into each importing module's namespace object,
 * so offering only the names used keeps that copy small (it ran to milliseconds per start with
 * every export of node:crypto and node:fs/promises, once per importing module).
 */
const sources = new Map();
/** The compiled modules' text, read once per build. */
function compiled(distDir) {
  if (!sources.has(distDir)) {
    const files = readdirSync(distDir, { recursive: true }).filter((file) => String(file).endsWith('.js'));
    sources.set(
      distDir,
      files.map((file) => readFileSync(join(distDir, String(file)), 'utf8')),
    );
  }
  return sources.get(distDir);
}

function namesImported(distDir, specifier) {
  const names = new Set();
  const from = `from '${specifier}'`;
  for (const text of compiled(distDir)) {
    if (!text.includes(from)) continue;
    for (const match of text.matchAll(new RegExp(`import\\s+([^;]*?)\\s+${from.replace(/[/]/g, '\\/')}`, 'g'))) {
      const named = /^\{([^}]*)\}$/.exec(match[1].trim());
      if (!named) return undefined;
      for (const part of named[1].split(',')) {
        const name = part.trim().split(/\s+as\s+/)[0];
        if (name) names.add(name);
      }
    }
  }
  return [...names];
}

/** The plugin, for a bundle of the compiled modules in `distDir`. */
export const lazyBuiltins = (distDir) => ({
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      // The getter module's own require() of the built-in is the real one.
      if (args.namespace === 'lazy-builtin' || !KINDS.has(args.kind)) return undefined;
      // Every built-in our modules import by name gets the getter object, holding only those
      // names (see namesImported); the lazy ones also those a dependency requires.
      const ours = args.kind === 'import-statement' && args.importer.startsWith(distDir);
      if (!ours && !LAZY_BUILTINS.includes(args.path)) return undefined;
      return { path: args.path, namespace: 'lazy-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const all = Object.keys(await import(args.path)).filter((name) => name !== 'default');
      const used = REQUIRED_BY_DEPENDENCIES.has(args.path) ? undefined : namesImported(distDir, args.path);
      const names = used === undefined ? all : used.filter((name) => all.includes(name));
      const contents = `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(args.path)}));
for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
Object.defineProperty(exports, 'default', { enumerable: true, get: load });`;
      return { contents, loader: 'js' };
    });
  },
});
