#!/usr/bin/env node
/**
 * Each start-up trick measured by its absence (docs/development.md "How start-up works"): a
 * trick stays only while it buys ≥ 20 ms on the commands it is for, on Node 24 and 26
 * (docs/performance.md lists each with its figures).
 *
 * Every variant is a copy of the built package in a temporary directory (bin/ and dist/
 * copied, node_modules and sample linked), the same in all but one trick, which an edit of
 * the copy switches off; the variants that change what the bundle holds are bundled again
 * (scripts/bundle.mjs --root <copy> [--without <plugin>]). "as built" is a copy with no edit,
 * so every variant starts from the same kind of path. Each variant has its own HOME (code
 * caches and response cache of its own: warm-up runs fill them). All cases run interleaved,
 * output into a pipe, in a minimal environment, against a loopback catalogue server; the
 * verdict compares each variant with "as built" on the same command: the difference of the
 * medians and the median of the per-round differences (rounds are adjacent runs, so they saw
 * the same machine).
 *
 * Usage: npm run build && node bench/tricks.mjs [runs] [--node <path>] [--only <variant,…>]
 *        (default 30 runs each, 3 warm-ups)
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFile, execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { interleaved, median, minimalEnv, takeNodeOption } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'Usage: npm run build && node bench/tricks.mjs [runs] [--node <path>] [--only <variant,…>]   (default 30 runs each, 3 warm-ups)';
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(argv.splice(onlyAt, 2)[1]?.split(',')) : undefined;
const runs = Number(argv[0] ?? 30);
if (!Number.isInteger(runs) || runs < 1) {
  console.log(USAGE);
  process.exit(argv[0] === '--help' || argv[0] === '-h' ? 0 : 2);
}
const warmups = 3;

const ID = 'Barbell_Bench_Press';
const CACHED_ID = 'Push_Up';
/** The command lines measured, by the name variants use; `dir` is the variant's copy. */
const COMMANDS = {
  '--version': () => ['--version'],
  '--help': () => ['--help'],
  'cache hit': () => ['show', CACHED_ID, '--format', 'json'],
  'network show': () => ['--refresh', 'show', ID, '--format', 'json'],
  // A flag before --help takes it past the launcher's plain forms: the CLI renders it (as at a terminal).
  'help by the CLI': () => ['--no-color', 'show', '--help'],
};

/**
 * The variants: `edits` (file in the copy → [text, replacement] pairs; each must match),
 * `without` (plugins scripts/bundle.mjs leaves out), `bundle` (bundle the copy again: its
 * edits change dist/), `commands` (the ones the trick is for).
 */
const VARIANTS = [
  { name: 'as built', commands: [] },
  {
    name: 'no launcher --version',
    trick: '`--version` answered by the launcher (bin/exercises.js)',
    edits: { 'bin/exercises.js': [["args.length === 1 && (args[0] === '--version' || args[0] === '-V')", 'false']] },
    commands: ['--version'],
  },
  {
    name: 'no static help',
    trick: '`--help` into a pipe from dist/help/ (bin/startup/static-help.js)',
    edits: { 'bin/exercises.js': [["require('./startup/static-help.js').printStaticHelp(args)", 'false']] },
    commands: ['--help'],
  },
  {
    name: 'no bundle',
    trick: 'the bundle (scripts/bundle.mjs: one CommonJS file, vendor files; with everything below) vs the plain tsc output',
    edits: { 'bin/exercises.js': [["require('node:fs').existsSync(bundle)", 'false']] },
    commands: ['cache hit', 'network show'],
  },
  {
    name: 'no compile cache',
    trick: "Node's compile cache, module.enableCompileCache() (bin/startup/engine-options.js; Node 22.1 and later)",
    edits: { 'bin/startup/engine-options.js': [["if (typeof enableCompileCache !== 'function') return;", 'return;']] },
    commands: ['help by the CLI', 'cache hit', 'network show'],
  },
  {
    name: 'no --liftoff-only',
    trick: "V8's --liftoff-only at start on Node 20 (bin/startup/engine-options.js)",
    edits: { 'bin/startup/engine-options.js': [["if (process.versions.node.startsWith('20.'))", 'if (false)']] },
    commands: ['cache hit', 'network show'],
  },
  {
    name: '--liftoff-only always',
    trick: "V8's --liftoff-only at start on every Node, not only 20 (bin/startup/engine-options.js)",
    edits: { 'bin/startup/engine-options.js': [["if (process.versions.node.startsWith('20.'))", 'if (true)']] },
    commands: ['network show'],
  },
  {
    name: 'no lazy-builtins',
    trick: 'built-ins required on first use, handed over name by name (scripts/bundle/lazy-builtins.mjs)',
    without: ['lazy-builtins'],
    bundle: true,
    commands: ['help by the CLI', 'cache hit', 'network show'],
  },
  {
    name: 'no vendor files',
    trick: 'the libraries in vendor files of their own (scripts/bundle/lazy-requires.mjs) vs inside the bundle, as esbuild puts an import()',
    without: ['lazy-requires'],
    bundle: true,
    commands: ['help by the CLI', 'cache hit', 'network show'],
  },
  {
    name: 'whole undici',
    trick: 'the part of undici the client runs (scripts/bundle/undici-trim.mjs) vs the whole package',
    without: ['undici-trim'],
    bundle: true,
    commands: ['network show'],
  },
].filter((v) => v.name === 'as built' || only === undefined || only.has(v.name));
// "as built" runs every command some variant is compared on.
VARIANTS[0].commands = Object.keys(COMMANDS).filter((command) => VARIANTS.some((v) => v.commands.includes(command)));

const work = mkdtempSync(join(tmpdir(), 'exercises-tricks-'));
let server;
try {
  /** Makes the variant's copy of the package; gives the path of its launcher. */
  const prepare = (variant, dir) => {
    mkdirSync(dir);
    cpSync(join(root, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(dir, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    symlinkSync(join(root, 'sample'), join(dir, 'sample'));
    for (const [file, pairs] of Object.entries(variant.edits ?? {})) {
      let text = readFileSync(join(dir, file), 'utf8');
      for (const [from, to] of pairs) {
        if (!text.includes(from)) throw new Error(`${variant.name}: ${file} no longer has ${JSON.stringify(from)}: update bench/tricks.mjs`);
        text = text.replace(from, to);
      }
      writeFileSync(join(dir, file), text);
    }
    if (variant.bundle) execFileSync(process.execPath, [join(root, 'scripts', 'bundle.mjs'), '--root', dir, '--without', (variant.without ?? []).join(',')]);
    return join(dir, 'bin', 'exercises.js');
  };

  const { createCatalogueServer } = await import(join(root, 'dist', 'server', 'catalogue-server.js'));
  const { sampleCatalogueDir } = await import(join(root, 'dist', 'server', 'sandbox.js'));
  server = await createCatalogueServer({ dir: sampleCatalogueDir(), host: '127.0.0.1', port: 0 });
  const server_ = server;

  const cases = [{ name: 'node -e 0', args: ['-e', '0'], env: minimalEnv(work), pipe: true }];
  for (const [i, variant] of VARIANTS.entries()) {
    const dir = join(work, String(i));
    const cli = prepare(variant, dir);
    const env = minimalEnv(join(dir, 'home'), { EXERCISES_BASE_URL: server_.url, EXERCISES_API_KEY: 'sandbox-premium' });
    for (const command of variant.commands)
      cases.push({ name: `${variant.name}: ${command}`, variant, command, args: [cli, ...COMMANDS[command](dir)], env, pipe: true });
  }
  // Fills each variant's response cache for the cache hit before any timing.
  for (const c of cases.filter((k) => k.command === 'cache hit')) await promisify(execFile)(node, c.args, { env: c.env });

  console.log(`node ${nodeVersion} (${node}); ${runs} runs each after ${warmups} warm-ups, interleaved, output into a pipe`);
  const samples = await interleaved(cases, { runs, warmups, node });
  const medians = samples.map(median);
  console.log(`node -e 0: ${medians[0].toFixed(1)} ms\n`);
  const builtAt = new Map(cases.map((c, j) => [c.variant?.name === 'as built' ? c.command : undefined, j]));
  console.log(
    `${'without'.padEnd(24)}${'command'.padEnd(14)}${'with'.padStart(8)}${'without'.padStart(9)}${'saves'.padStart(8)}${'paired'.padStart(8)}     verdict`,
  );
  for (const [j, c] of cases.entries()) {
    if (c.variant === undefined) continue;
    if (c.variant.name === 'as built') {
      console.log(`${'(as built)'.padEnd(24)}${c.command.padEnd(14)}${medians[j].toFixed(1).padStart(8)}`);
      continue;
    }
    const k = builtAt.get(c.command);
    const saves = medians[j] - medians[k];
    const paired = median(samples[j].map((ms, i) => ms - samples[k][i]));
    const earns = Math.min(saves, paired) >= 20;
    console.log(
      `${c.variant.name.padEnd(24)}${c.command.padEnd(14)}${medians[k].toFixed(1).padStart(8)}${medians[j].toFixed(1).padStart(9)}` +
        `${saves.toFixed(1).padStart(8)}${paired.toFixed(1).padStart(8)}     ${earns ? 'earns its place' : 'under 20 ms'} (${((saves / medians[j]) * 100).toFixed(0)} %)`,
    );
  }
  console.log('\nwith: as built; without: the variant; saves: without − with (medians); paired: median of the per-round differences (ms)');
  console.log(
    `the tricks:\n${VARIANTS.filter((v) => v.trick)
      .map((v) => `  ${v.name}: ${v.trick}`)
      .join('\n')}`,
  );
} finally {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
}
