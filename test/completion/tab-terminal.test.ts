/**
 * TAB in a real terminal (tmux, 80×24) in bash, zsh and fish: an exercise completes to its id
 * whether its id or its name is typed (in any case, a space as `\ ` or inside quotes), and the
 * list of candidates holds each exercise once — the id, with the name beside it where the shell
 * shows descriptions (zsh, fish), never `Barbell\ Back\ Squat` next to `Barbell_Back_Squat`.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_TMUX, NO_TMUX_MESSAGE } from '../terminal/tmux.js';
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A shell in tmux with the completion script loaded; `tab` types a line, presses TAB and gives the screen. */
async function shellTerminal(c: (typeof SHELLS)[number], setup: ShellEnv, id: string) {
  const socket = `ex-tab-${process.pid}-${id}`;
  const tmux = (...args: string[]) =>
    spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { TERM: 'xterm-256color', ...setup.env } });
  const envArgs = Object.entries(setup.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  expect(tmux('new-session', '-d', '-s', 't', '-x', '80', '-y', '24', ...envArgs, c.start).status).toBe(0);
  await sleep(800);
  tmux('send-keys', '-t', 't', c.load(setup.script), 'Enter');
  await sleep(1200);
  const screen = () => tmux('capture-pane', '-p', '-t', 't').stdout;
  return {
    /** Clears the line and the screen, types `line`, presses TAB `tabs` times; the screen then. */
    async tab(line: string, tabs = 1): Promise<string> {
      tmux('send-keys', '-t', 't', 'C-u', 'C-l');
      await sleep(300);
      tmux('send-keys', '-t', 't', '-l', line);
      for (let i = 0; i < tabs; i++) {
        await sleep(300);
        tmux('send-keys', '-t', 't', 'Tab');
        // Until the candidates or the completed line show (each TAB runs the CLI once).
        const until = Date.now() + 3_000;
        const before = screen();
        while (Date.now() < until && screen() === before) await sleep(100);
        await sleep(400);
      }
      return screen();
    },
    close: () => void tmux('kill-server'),
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
        const term = await shellTerminal(c, setup, c.shell);
        try {
          // A name, typed with a backslash-escaped space, in lower case.
          expect(await term.tab('exercises show barbell\\ ba')).toMatch(/exercises show Barbell_Back_Squat\s*$/m);
          // A name typed inside quotes.
          expect(await term.tab('exercises show "Barbell Ba')).toMatch(/exercises show "?Barbell_Back_Squat"?\s*$/m);
          // An id.
          expect(await term.tab('exercises show Pla')).toMatch(/exercises show Plank\s*$/m);
          // The list: both ids, and never a name as a candidate of its own.
          const list = await term.tab('exercises show Barb', c.shell === 'bash' ? 3 : 2);
          expect(list).toContain('Barbell_Bench_Press');
          expect(list).toContain('Barbell_Back_Squat');
          expect(list).not.toContain('Barbell\\ Back');
          if (c.shell === 'bash') expect(list).not.toContain('Barbell Back Squat');
          else expect(list).toMatch(/Barbell_Back_Squat\s+(--\s+|\()Barbell Back Squat/); // zsh `-- name`, fish `(name)`
          expect(list.split('\n').filter((l) => l.includes('Back_Squat') && !l.includes('exercises show'))).toHaveLength(1);
        } finally {
          term.close();
          await sleep(300);
          rmSync(setup.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        }
      },
      60_000,
    );
  }
});
