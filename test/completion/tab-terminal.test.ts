/**
 * TAB in a real terminal (tmux, 80×24) in bash, zsh and fish: an exercise completes to its id
 * whether its id or its name is typed (in any case, a space as `\ ` or inside quotes), and the
 * list of candidates holds each exercise once — the id, with the name beside it where the shell
 * shows descriptions (zsh, fish), never `Barbell\ Back\ Squat` next to `Barbell_Back_Squat`.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_TMUX, NO_TMUX_MESSAGE, tmuxServer, waitForScreen } from '../helpers/tmux.js';
import { type ShellEnv, catalogueDir, hasShell, shellEnv } from './shell-driver.js';

const RECORDS = [
  { id: 'Barbell_Bench_Press', name: 'Barbell Bench Press' },
  { id: 'Barbell_Back_Squat', name: 'Barbell Back Squat' },
  { id: 'Plank', name: 'Plank' },
];

const SHELLS = [
  { shell: 'bash', start: 'HISTFILE= bash --norc --noprofile', load: (s: string) => `source ${s}` },
  { shell: 'zsh', start: 'zsh -f', load: (s: string) => `autoload -U compinit && compinit -u && source ${s}` },
  { shell: 'fish', start: 'fish --no-config', load: (s: string) => `source ${s}` },
] as const;

if (!HAVE_TMUX) console.warn(NO_TMUX_MESSAGE);

/** A shell in tmux with the completion script loaded; `tab` types a line, presses TAB and gives the screen. */
async function shellTerminal(c: (typeof SHELLS)[number], setup: ShellEnv) {
  const server = tmuxServer(`exercises-tab-${c.shell}`, { TERM: 'xterm-256color', ...setup.env });
  const envArgs = Object.entries(setup.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  await server.exec('new-session', '-d', '-s', 't', '-x', '80', '-y', '24', ...envArgs, c.start);
  const screen = () => server.exec('capture-pane', '-p', '-t', 't');
  await waitForScreen(screen, /\S/, 10_000); // the first prompt
  // Loaded when the shell has run the line and printed the marker (compinit takes a while on a busy machine).
  await server.exec('send-keys', '-t', 't', `${c.load(setup.script)}; echo LOADED""-OK`, 'Enter');
  await waitForScreen(screen, /^LOADED-OK$/m, 20_000);
  return {
    /**
     * Clears the line and the screen, types `line`, presses TAB `tabs` times; the screen once
     * it shows `expected` (each TAB runs the CLI once: a busy machine may take seconds).
     */
    async tab(line: string, tabs: number, expected: RegExp): Promise<string> {
      await server.exec('send-keys', '-t', 't', 'C-u', 'C-l');
      // Cleared: the prompt alone is left.
      await waitForScreen(screen, (text) => text.split('\n').filter((l) => l.trim() !== '').length <= 1, 10_000);
      await server.exec('send-keys', '-t', 't', '-l', line);
      await waitForScreen(screen, (text) => text.includes(line), 10_000);
      // All at once: the shell reads them one after the other, each completion run to its end.
      await server.exec('send-keys', '-t', 't', ...Array.from({ length: tabs }, () => 'Tab'));
      return waitForScreen(screen, expected, 15_000);
    },
    close: () => server.kill(),
  };
}

describe.skipIf(!HAVE_TMUX)('TAB completes exercise ids in a real terminal (tmux, 80×24)', () => {
  let dir: string;
  beforeAll(() => {
    dir = catalogueDir(RECORDS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const c of SHELLS) {
    it.skipIf(!hasShell(c.shell))(
      `${c.shell}: a name typed in any case completes to the id, and the list shows each exercise once`,
      async () => {
        const setup = await shellEnv(c.shell, { EXERCISES_CATALOGUE: dir });
        const term = await shellTerminal(c, setup);
        try {
          // A name, typed with a backslash-escaped space, in lower case.
          const squat = /exercises show Barbell_Back_Squat\s*$/m;
          expect(await term.tab('exercises show barbell\\ ba', 1, squat)).toMatch(squat);
          // A name typed inside quotes.
          const quoted = /exercises show "?Barbell_Back_Squat"?\s*$/m;
          expect(await term.tab('exercises show "Barbell Ba', 1, quoted)).toMatch(quoted);
          // An id.
          expect(await term.tab('exercises show Pla', 1, /exercises show Plank\s*$/m)).toMatch(/exercises show Plank\s*$/m);
          // The list: both ids, and never a name as a candidate of its own.
          const list = await term.tab(
            'exercises show Barb',
            c.shell === 'bash' ? 3 : 2,
            /Barbell_Bench_Press[\s\S]*Barbell_Back_Squat|Barbell_Back_Squat[\s\S]*Barbell_Bench_Press/,
          );
          expect(list).toContain('Barbell_Bench_Press');
          expect(list).toContain('Barbell_Back_Squat');
          expect(list).not.toContain('Barbell\\ Back');
          if (c.shell === 'bash') expect(list).not.toContain('Barbell Back Squat');
          else expect(list).toMatch(/Barbell_Back_Squat\s+(--\s+|\()Barbell Back Squat/); // zsh `-- name`, fish `(name)`
          expect(list.split('\n').filter((l) => l.includes('Back_Squat') && !l.includes('exercises show'))).toHaveLength(1);
        } finally {
          term.close();
          // The shell may still be writing its history as it ends: retried.
          rmSync(setup.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        }
      },
      60_000,
    );
  }
});
