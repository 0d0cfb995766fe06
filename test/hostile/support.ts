/** What the hostile suites share: one hostile server per file, the CLI pointed at it, and checks on output. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { type HostileServer, TERMINAL_UNSAFE } from '../helpers/hostile-server.js';
import type { CliResult } from '../helpers/run-cli.js';
import { type InProcessOptions, runInProcess } from '../helpers/test-context.js';

/** Temp directories come from the one helper; re-exported for the suites that import them from here. */
export { tempDir } from '../helpers/temp.js';

export const KEY = 'Sx9qK3yZZ-0123456789-wQ7v';

/** `exercises --base-url <server> <args>` in-process, with the test key. */
export function cli(server: HostileServer, args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  return runInProcess(['--base-url', server.url, ...args], { ...options, env: { EXERCISES_API_KEY: KEY, ...options.env } });
}

/** Wall time of `run`, in ms, with its result. */
export async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** Neither stream carries an escape sequence, C1 control or bidi control. */
export function expectTerminalSafe(r: CliResult): void {
  expect(r.stdout).not.toMatch(TERMINAL_UNSAFE);
  expect(r.stderr).not.toMatch(TERMINAL_UNSAFE);
}

/** Every file under `dir`, relative, sorted. */
export function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else found.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return found.sort();
}

/** The text of every file under `dir`, for looking for a leaked key. */
export function allFileText(dir: string): string {
  return filesUnder(dir)
    .map((f) => readFileSync(join(dir, f), 'latin1'))
    .join('\n');
}
