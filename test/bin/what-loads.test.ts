/**
 * What the quickest runs load (issue: start-up budgets): TAB completion and `--help` must load
 * none of the vendor files (undici, the cache rules, the picker's @inquirer/search,
 * pngjs, conf, chalk…), and TAB not even the CLI. A preloaded script lists the files require()
 * loaded; the launcher compiles the CLI and undici itself, so those are told by the code-cache
 * files they leave (bin/startup/code-cache.js); Node's moduleLoadList tells the built-ins. A cache hit is checked in
 * test/cache/hit-loads-no-http.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolatedHome, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';

const TRACE = fileURLToPath(new URL('../cache/fixtures/trace-requires.cjs', import.meta.url));

async function traced(args: string[]) {
  const home = isolatedHome();
  const dir = tempDir('exercises-trace-');
  const [file, builtinsFile] = [join(dir, 'loaded.json'), join(dir, 'builtins.json')];
  const r = await runCli(args, { env: { HOME: home, NODE_OPTIONS: `--require ${TRACE}`, TRACE_REQUIRES_FILE: file, TRACE_BUILTINS_FILE: builtinsFile } });
  const loaded = JSON.parse(readFileSync(file, 'utf8')) as string[];
  const builtins = JSON.parse(readFileSync(builtinsFile, 'utf8')) as string[];
  const codeCache = join(home, '.cache', 'exercises', 'code-cache');
  return {
    ...r,
    loaded: loaded.map((f) => basename(f)),
    builtins,
    vendors: loaded.filter((f) => f.includes(join('bundle', 'vendor'))).map((f) => basename(f, '.cjs')),
    ranCli: existsSync(codeCache),
    loadedUndici: existsSync(join(codeCache, 'vendor-undici.cjs.v8')),
  };
}

describe('what the quickest runs load', () => {
  it('TAB: its own small bundle, never the CLI nor any vendor file', async () => {
    const r = await traced(['__complete', 'bash', '1', 'exercises', 'qu']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('query');
    expect(r.loaded).toContain('complete.cjs');
    expect(r.vendors).toEqual([]);
    expect(r.ranCli).toBe(false);
  });

  it('--help into a pipe: the text the build wrote, not the CLI', async () => {
    const r = await traced(['show', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('USAGE');
    expect(r.vendors).toEqual([]);
    expect(r.ranCli).toBe(false);
  });

  it('--help rendered by the CLI (as at a terminal): no vendor file, no undici', async () => {
    // A flag before --help takes it past the launcher's plain forms, to the CLI.
    const r = await traced(['--no-color', 'download', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('USAGE');
    expect(r.ranCli).toBe(true);
    expect(r.vendors).toEqual([]);
    expect(r.loadedUndici).toBe(false);
    // No module loads a lazy built-in at its top level (a class extending Writable would load
    // node:stream), and the text goes into the pipe without process.stdout (node:net).
    expect(r.builtins).toContain('fs');
    for (const builtin of ['stream', 'net', 'crypto', 'fs/promises', 'tty', 'http', 'child_process']) expect(r.builtins).not.toContain(builtin);
  });
});
