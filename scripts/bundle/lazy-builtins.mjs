/**
 * Start-up only (docs/development.md "How start-up works"). How the bundle gets the built-ins
 * our modules (and commander) import, so that neither loading them nor handing them over
 * costs a start:
 *
 * - Loading: several built-ins cost milliseconds to require and most commands never call
 *   them (node:crypto ~9 ms on this machine, node:tty ~7 ms, node:net ~6 ms, node:fs/promises
 *   ~4 ms, node:child_process, node:http, node:dns). They are required on first use, so the
 *   same functions are called, just loaded when reached.
 * - Handing over: esbuild gives a module that imports a CommonJS module a copy of its exports
 *   (`__toESM`: a getter defined per name, per importing module). With every built-in handed
 *   over that way a start spent ~4 ms and ~190 KB of short-lived objects on the copies alone.
 *   So each built-in our modules import by name becomes an ES module of its own, which
 *   esbuild links name by name with no copy:
 *   - one Node has already loaded before any of our code runs (ALREADY_LOADED) exports the
 *     built-in's own values, read once at start;
 *   - any other whose names are all plain functions exports one small function per name that
 *     requires the built-in on its first call;
 *   - the rest (a class or a constant from a built-in not yet loaded: node:stream's Readable,
 *     node:net's Socket) stays an object of getters with those names alone, loaded on the
 *     first read.
 * - A require() inside a dependency (commander's `require('node:child_process')`, for
 *   executable subcommands, which this CLI has none of) gets the object of getters with every
 *   name.
 *
 * No source is edited. The names are read here, at build time, from the compiled modules and
 * from the same Node's built-ins.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Built-ins worth deferring even when a dependency requires them (see above). */
export const LAZY_BUILTINS = [
  'node:crypto',
  'node:fs/promises',
  'node:tty',
  'node:child_process',
  'node:dns',
  'node:http',
  'node:https',
  'node:tls',
  'node:readline',
];

/**
 * Built-ins Node itself has loaded before running any script (process.moduleLoadList of an
 * empty script on Node 20, 22 and 24): reading their values at start costs nothing.
 */
const ALREADY_LOADED = new Set(['node:buffer', 'node:events', 'node:fs', 'node:path', 'node:timers', 'node:url', 'node:util']);

const NAMESPACES = new Set(['builtin-named', 'builtin-getters']);

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

/**
 * The names our compiled modules (under `distDir`) import from `specifier`, or undefined when
 * any of them takes it whole (`import * as`, a default import): then every export is kept.
 */
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

/**
 * A function a stand-in can forward calls to: not a class (`new`, `instanceof` and `extends`
 * need the real one) and with nothing attached (`util.promisify.custom` and the like).
 */
function forwardable(value) {
  if (typeof value !== 'function' || /^class\b/.test(Function.prototype.toString.call(value))) return false;
  if (Object.getOwnPropertySymbols(value).length > 0) return false;
  const own = Object.getOwnPropertyNames(value).filter((key) => !['length', 'name', 'prototype', 'arguments', 'caller'].includes(key));
  const protoKeys = value.prototype === undefined ? [] : Object.getOwnPropertyNames(value.prototype).filter((key) => key !== 'constructor');
  return own.length === 0 && protoKeys.length === 0;
}

const loader = (specifier) => `let loaded;\nconst load = () => (loaded ??= require(${JSON.stringify(specifier)}));\n`;

/** An ES module exporting `names` of `specifier`, or undefined when one of them cannot be handed over that way. */
function namedModule(specifier, builtin, names) {
  if (ALREADY_LOADED.has(specifier)) return `export const { ${names.join(', ')} } = require(${JSON.stringify(specifier)});`;
  if (!names.every((name) => forwardable(builtin[name]))) return undefined;
  return loader(specifier) + names.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`).join('\n');
}

/** A CommonJS module whose `names` are getters that require `specifier` on the first read. */
function gettersModule(specifier, names) {
  return `${loader(specifier)}for (const name of ${JSON.stringify(names)}) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
Object.defineProperty(exports, 'default', { enumerable: true, get: load });`;
}

/** The plugin, for a bundle of the compiled modules in `distDir`. */
export const lazyBuiltins = (distDir) => ({
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      // The stand-in's own require() of the built-in is the real one.
      if (NAMESPACES.has(args.namespace)) return undefined;
      if (args.kind === 'import-statement' && args.importer.startsWith(distDir)) return { path: args.path, namespace: 'builtin-named' };
      if (args.kind === 'require-call' && LAZY_BUILTINS.includes(args.path)) return { path: args.path, namespace: 'builtin-getters' };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-named' }, async (args) => {
      const builtin = await import(args.path);
      const all = Object.keys(builtin).filter((name) => name !== 'default');
      const used = namesImported(distDir, args.path);
      const names = used === undefined ? undefined : used.filter((name) => all.includes(name));
      const contents = (names !== undefined && namedModule(args.path, builtin, names)) || gettersModule(args.path, names ?? all);
      return { contents, loader: 'js' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-getters' }, async (args) => {
      const all = Object.keys(await import(args.path)).filter((name) => name !== 'default');
      return { contents: gettersModule(args.path, all), loader: 'js' };
    });
  },
});
