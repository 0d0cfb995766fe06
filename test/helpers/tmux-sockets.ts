/**
 * Where the suite's tmux servers keep their sockets, and finding the ones still running. Pure
 * Node (no vitest): the global setup (test/setup/global.ts) uses it at the end of the run, the
 * test helper (tmux.ts) during it. tmux puts a server's socket in $TMUX_TMPDIR/tmux-<uid>/, or
 * /tmp/tmux-<uid>/, not under TMPDIR: the suite's servers take an explicit socket (-S) under
 * the run's temp root instead, so nothing of theirs lands in the machine's tmux directory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The directory, under a run's temp root, that holds the run's tmux sockets (and TMUX_TMPDIR). */
export function tmuxDir(root: string): string {
  return join(root, 'tmux');
}

/** True when tmux can be run here. */
export const HAVE_TMUX = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

/** True while a tmux server answers on `socket`. */
export function serverRunning(socket: string): boolean {
  return spawnSync('tmux', ['-S', socket, 'list-sessions'], { stdio: 'ignore' }).status === 0;
}

/** Stops the tmux server on `socket`, if one runs there. */
export function killServer(socket: string): void {
  spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
}

/** Every socket under `dir` (at any depth: TMUX_TMPDIR adds a tmux-<uid> level) whose server still runs. */
export function runningServers(dir: string): string[] {
  if (!HAVE_TMUX || !existsSync(dir)) return [];
  const sockets: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isSocket()) sockets.push(path);
    }
  };
  walk(dir);
  return sockets.filter(serverRunning);
}
