/**
 * The prompt and image code load only when used (start-up budgets unchanged): a plain
 * `--help`, a `show` answered from the cache and a `show` in a pipe load neither the prompt
 * library (its vendor file, dist/bundle/vendor/inquirer-search.cjs) nor node:zlib, which the
 * PNG decoder (src/output/images/png-cells.ts) inflates with, while a half-block drawing at a
 * terminal does load node:zlib, which shows the trace sees them. The exercise picker is our own
 * code (src/prompt/picker-screen.ts): it needs no prompt library, which only the "nothing known
 * yet, list them?" offer loads. A preloaded script lists the files require() loaded (test/cache/fixtures).
 *
 * Start-up in general: our own modules are imported statically (one bundle), so what keeps
 * `--help`, a TAB and a cache hit fast is that they require no vendor file at all and none of
 * the built-ins the bundle loads on first use (scripts/bundle.mjs LAZY_BUILTINS): a module that
 * started doing work at its top level, or a loader called at load, fails here.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { HAVE_TMUX, startTerminal } from './tmux.js';
import { tempDir } from '../helpers/temp.js';

const TRACE = fileURLToPath(new URL('../cache/fixtures/trace-requires.cjs', import.meta.url));
const LAZY = ['inquirer-search'];

let server: CatalogueServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function traceFile(): string {
  const dir = tempDir('exercises-trace-');
  dirs.push(dir);
  return join(dir, 'loaded.json');
}

function vendorsIn(file: string): string[] {
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as string[];
  return loaded.filter((f) => f.includes(join('bundle', 'vendor'))).map((f) => basename(f, '.cjs'));
}

async function vendorsLoadedBy(args: string[], env: Record<string, string | undefined>) {
  const file = traceFile();
  const builtinsFile = `${file}.builtins`;
  const r = await runCli(args, { env: { ...env, NODE_OPTIONS: `--require ${TRACE}`, TRACE_REQUIRES_FILE: file, TRACE_BUILTINS_FILE: builtinsFile } });
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as string[];
  return { ...r, vendors: vendorsIn(file), loaded, builtins: JSON.parse(readFileSync(builtinsFile, 'utf8')) as string[] };
}

/**
 * Built-ins a start-up never needs: the bundle requires them on first use only (LAZY_BUILTINS
 * in scripts/bundle.mjs), or only what a request or a pager loads brings them.
 */
const NOT_AT_START = ['http', 'https', 'tls', 'readline', 'child_process', 'dns', 'zlib', 'worker_threads', 'http2'];
/** …and what `--help` and a TAB need no more than that: a cache hit hashes its key (crypto). */
const NOT_FOR_HELP = [...NOT_AT_START, 'crypto', 'fs/promises', 'tty'];

describe('prompt and image code load only when used', () => {
  it('--help loads neither', async () => {
    const r = await vendorsLoadedBy(['--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^USAGE$/m);
    for (const v of LAZY) expect(r.vendors).not.toContain(v);
  });

  it('help, --version and completion scripts load no vendor file and no lazy built-in', async () => {
    for (const args of [['--help'], ['show', '--help'], ['download', '--help'], ['serve', '--help'], ['--version'], ['completion', 'bash']]) {
      const r = await vendorsLoadedBy(args, {});
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.vendors, args.join(' ')).toEqual([]);
      expect(
        NOT_FOR_HELP.filter((b) => r.builtins.includes(b)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('a TAB loads the completion bundle alone: not the CLI, no vendor file, no lazy built-in but node:crypto', async () => {
    const r = await vendorsLoadedBy(['__complete', 'bash', '1', 'exercises', 'sh'], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('show');
    expect(r.loaded.filter((f) => f.includes(join('dist', 'bundle'))).map((f) => basename(f))).toEqual(['complete.cjs']);
    // node:crypto aside: the completion bundle imports it to name a catalogue's index files (catalogue-ids.ts).
    expect(NOT_FOR_HELP.filter((b) => b !== 'crypto' && r.builtins.includes(b))).toEqual([]);
  });

  it('a show answered from the cache loads neither', async () => {
    const home = isolatedHome();
    dirs.push(home);
    const env = { ...serverEnv(server), HOME: home, XDG_CACHE_HOME: join(home, '.cache') };
    const miss = await vendorsLoadedBy(['show', 'Push_Up'], env);
    expect(miss.code, miss.stderr).toBe(0);
    const hit = await vendorsLoadedBy(['show', 'Push_Up'], env);
    expect(hit.code, hit.stderr).toBe(0);
    expect(hit.vendors).toEqual([]);
    expect(NOT_AT_START.filter((b) => hit.builtins.includes(b))).toEqual([]);
    // The trace sees them when they are used: the miss sent a request over a socket.
    expect(miss.builtins).toContain('net');
  });

  it('show --images in a pipe loads neither', async () => {
    const r = await vendorsLoadedBy(['--sandbox', 'show', 'Plank', '--images=blocks'], {});
    expect(r.code, r.stderr).toBe(0);
    for (const v of LAZY) expect(r.vendors).not.toContain(v);
    expect(r.builtins).not.toContain('zlib');
  });

  it.skipIf(!HAVE_TMUX)('at a terminal, a half-block drawing loads the decoder, and the picker no prompt library (tmux)', async () => {
    const file = traceFile();
    const t = await startTerminal(['--sandbox', 'show', '--images=blocks', '--size', '20x10'], {
      env: { NODE_OPTIONS: `--require ${TRACE}`, TRACE_REQUIRES_FILE: file, TRACE_BUILTINS_FILE: `${file}.builtins`, COLORTERM: 'truecolor' },
    });
    try {
      await t.waitFor('Pick an exercise');
      await t.type('plank');
      await t.waitFor(/❯ Plank/);
      await t.keys('Enter');
      expect(await t.exitCode()).toBe(0);
      expect(existsSync(file)).toBe(true);
      expect(JSON.parse(readFileSync(`${file}.builtins`, 'utf8'))).toContain('zlib');
      expect(vendorsIn(file)).not.toContain('inquirer-search');
    } finally {
      t.close();
    }
  });
});
