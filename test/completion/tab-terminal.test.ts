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
  const screen = () => tmux('capture-pane', '-p', '-t', 't').stdout;
  const until = async (pattern: RegExp, ms: number): Promise<void> => {
    const end = Date.now() + ms;
    while (!pattern.test(screen()) && Date.now() < end) await sleep(100);
  };
  await until(/\S/, 10_000); // the first prompt
  // Loaded when the shell has run the line and printed the marker (compinit takes a while on a busy machine).
  tmux('send-keys', '-t', 't', `${c.load(setup.script)}; echo LOADED""-OK`, 'Enter');
  await until(/^LOADED-OK$/m, 20_000);
  return {
    /**
     * Clears the line and the screen, types `line`, presses TAB `tabs` times; the screen then,
     * once it shows `expected` (or after 10 s: a busy machine may be slow to run the CLI).
     */
    async tab(line: string, tabs = 1, expected?: RegExp): Promise<string> {
      tmux('send-keys', '-t', 't', 'C-u', 'C-l');
      await sleep(300);
      tmux('send-keys', '-t', 't', '-l', line);
      for (let i = 0; i < tabs; i++) {
        await sleep(300);
        tmux('send-keys', '-t', 't', 'Tab');
        // Until the candidates or the completed line show (each TAB runs the CLI once).
        const deadline = Date.now() + 3_000;
        const before = screen();
        while (Date.now() < deadline && screen() === before) await sleep(100);
        await sleep(400);
      }
      if (expected) await until(expected, 10_000);
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
          await sleep(300);
          rmSync(setup.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        }
      },
      60_000,
    );
  }
});
