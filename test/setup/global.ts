/**
 * One temp root per run: made here before any test file runs, handed to the workers
 * (inject('tempRoot') in test/helpers/temp.ts, and TMPDIR, so even os.tmpdir() points
 * into it), and removed when the run ends. tmux, which does not read TMPDIR, gets
 * TMUX_TMPDIR there too, and the suite's tmux servers their sockets there (helpers/tmux.ts).
 *
 * When the run ends: a tmux server of the run still running is stopped and fails the run;
 * then the OS temp dir is checked for new entries the suite could have made (a prefix a test
 * gave tempDir() plus mkdtemp's six characters, test/helpers/temp-prefixes.ts), which would
 * mean something escaped the root. Other programs' new files there are not ours and are left
 * alone: a shared machine's temp dir changes all the time.
 *
 * HOME and the XDG directories point into the root as well, for the workers and everything they
 * start (the CLI, shells, tmux): a shell such as fish makes ~/.config/fish and ~/.local/share/fish
 * on its first run, and nothing the suite starts may write the user's own home. At the end the
 * real home is checked for what the suite's programs would make there (test/setup/home-check.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { madeWithPrefix, prefixesUsed } from '../helpers/temp-prefixes.js';
import { killServer, runningServers, tmuxDir } from '../helpers/tmux-sockets.js';
import { homeEnv, homeLeaks, homeSnapshot } from './home-check.js';

/** Prefix of a run's root; another run's root, made while this one ran, is not a leak of ours. */
const ROOT_PREFIX = 'exercises-test-run-';
/** Set to `warn` to report leftovers without failing. */
const WARN_ONLY = 'EXERCISES_TEST_TMP_CHECK';

/** The entries of `dir` (none if it does not exist). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The OS temp dir as the first setup found it: each project runs this setup, after another may have set TMPDIR. */
const OS_TEMP = 'EXERCISES_TEST_OS_TMPDIR';

export default function setup(project: TestProject): () => void {
  const osTemp = (process.env[OS_TEMP] ??= tmpdir());
  const before = new Set(entries(osTemp));
  const root = mkdtempSync(join(osTemp, ROOT_PREFIX));
  mkdirSync(tmuxDir(root));
  project.provide('tempRoot', root);
  // Workers and everything they spawn with the inherited environment write under the root.
  const privateEnv = { TMPDIR: root, TMUX_TMPDIR: tmuxDir(root), ...homeEnv(root) };
  const previous = Object.fromEntries(Object.keys(privateEnv).map((name) => [name, process.env[name]]));
  const realHome = previous.HOME;
  const homeBefore = realHome === undefined ? undefined : homeSnapshot(realHome);
  Object.assign(process.env, privateEnv);

  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    // Stopped before the root goes: a server whose socket is deleted runs on, unreachable.
    const servers = runningServers(tmuxDir(root));
    for (const socket of servers) killServer(socket);

    const ours = prefixesUsed(root);
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    const escaped = entries(osTemp)
      .filter((name) => !before.has(name) && !name.startsWith(ROOT_PREFIX) && madeWithPrefix(name, ours))
      .map((name) => join(osTemp, name))
      .sort();
    const leaks = realHome === undefined || homeBefore === undefined ? [] : homeLeaks(realHome, homeBefore);
    if (leaks.length > 0) {
      // Names only the suite's programs make: ours beyond reasonable doubt.
      throw new Error(
        `The test run wrote into the real home directory (every child gets a private HOME, test/setup/home-check.ts):\n${leaks.map((p) => `  ${p}`).join('\n')}`,
      );
    }
    if (servers.length > 0) {
      // Ours beyond doubt, so never only a warning.
      throw new Error(
        `The test run left ${servers.length} tmux server(s) running (now stopped): close each terminal a test starts (test/helpers/tmux.ts).\n${servers.map((s) => `  ${s}`).join('\n')}`,
      );
    }
    if (escaped.length > 0) {
      const shown = escaped.slice(0, 50).map((path) => `  ${path}`);
      if (escaped.length > shown.length) shown.push(`  … and ${escaped.length - shown.length} more`);
      const message = `The test run left ${escaped.length} new entr${escaped.length === 1 ? 'y' : 'ies'} named as the suite names its files, outside its temp root (everything belongs under it, test/helpers/temp.ts):\n${shown.join('\n')}`;
      if (process.env[WARN_ONLY] === 'warn') console.warn(`warning: ${message}`);
      else throw new Error(`${message}\n(${WARN_ONLY}=warn reports this without failing the run.)`);
    }
  };
}
