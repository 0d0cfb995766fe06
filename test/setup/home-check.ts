/**
 * The suite never touches the user's home directory. Every process a test starts gets a home of
 * the run's own (HOME and every XDG directory, which fish, zsh, tmux and the CLI read), and at
 * the end of the run the real home is checked for the names those programs would have made
 * there. Only those names are looked for: other programs running beside the suite (an editor,
 * npm) write into the home directory too, and their files are not ours.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The run's own home, under its temp root, for whatever a test starts without a home of its own. */
export function homeEnv(root: string): Record<string, string> {
  return homeDirs(join(root, 'home'));
}

/** HOME and the XDG base directories inside `home`: every place a program looks for its files. */
export function homeDirs(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
}

/** Where, under a home, the programs the suite starts keep their files. */
const WATCHED_DIRS = ['', '.config', '.cache', '.local/share', '.local/state'];
/** What they would name them: the CLI's own, the shells' (config, history, completion dumps) and tmux's. */
const SUITE_NAMES = /^(exercises|fish|zsh|\.zsh_history|\.zcompdump.*|\.bash_history|\.tmux.*|tmux|\.lesshst|less|\.node_repl_history)$/;

/** The entries under `home` the check compares (paths relative to it). */
export function homeSnapshot(home: string): Set<string> {
  const found = new Set<string>();
  for (const dir of WATCHED_DIRS) {
    let names: string[];
    try {
      names = readdirSync(join(home, dir));
    } catch {
      continue;
    }
    for (const name of names) found.add(dir === '' ? name : `${dir}/${name}`);
  }
  return found;
}

/** The suite's names that appeared under `home` since `before` was taken. */
export function homeLeaks(home: string, before: Set<string>): string[] {
  return [...homeSnapshot(home)]
    .filter((path) => !before.has(path) && SUITE_NAMES.test(path.slice(path.lastIndexOf('/') + 1)))
    .map((path) => join(home, path))
    .sort();
}
