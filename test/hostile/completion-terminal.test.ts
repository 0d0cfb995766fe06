/**
 * Class 14, the terminal through completion: ids and names carrying OSC (window title), CSI
 * (clear screen, colours), C1 and bidi controls, 20 KB ids, and shell metacharacters. The
 * completion index never keeps the first kinds and `__complete` never offers them; a TAB in
 * zsh, bash and fish (driven in tmux) leaves the window title and the screen alone, shows no
 * colour, and runs nothing. Skipped, with a message, where tmux or a shell is missing.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ID_INDEX_MAX_BYTES, appendIdIndex, readIdIndex } from '../../src/completion/id-index.js';
import { runCli } from '../helpers/run-cli.js';
import { hasShell, shellEnv } from '../completion/shell-driver.js';
import { HAVE_TMUX, NO_TMUX_MESSAGE, settledScreen, tmuxServer, waitForScreen } from '../helpers/tmux.js';
import { tempDir } from './support.js';

const scratch = tempDir('hostile-tab-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const marker = join(scratch, 'ran');

/** Entries no completion may carry: each would act on a terminal printed raw. */
const HOSTILE = [
  { id: 'Title\u001b]0;PWNED\u0007x', name: 'Title' },
  { id: 'Clear\u001b[2Jx', name: 'Clear' },
  { id: 'Red\u001b[31mx', name: 'Red' },
  { id: 'Cone\u009b31mx', name: 'C one' },
  { id: 'Bidi\u202ex', name: 'Bidi' },
  { id: 'Del\u007fx', name: 'Del' },
  { id: 'NameOnly', name: 'Name \u001b]0;PWNED\u0007' },
  { id: `Long${'x'.repeat(20_000)}`, name: 'Long' },
];
/** Printable but hostile to a shell: offered, and must stay inert text. */
const METACHARACTERS = [
  { id: `$(touch ${marker})`, name: 'Sub' },
  { id: `;touch ${marker};`, name: 'Semi' },
  { id: '`touch x`', name: 'Tick' },
];
const GOOD = { id: 'Plank', name: 'Plank' };

describe('the completion index', () => {
  it('keeps out ids and names with controls and entries over 256 characters, and stays under its byte cap', () => {
    const dir = join(scratch, 'index');
    appendIdIndex(dir, [...HOSTILE, ...METACHARACTERS, GOOD]);
    expect(readIdIndex(dir).map((e) => e.id)).toEqual([...METACHARACTERS.map((e) => e.id), 'Plank']);
    const text = readFileSync(join(dir, 'completion-ids.tsv'), 'utf8');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    appendIdIndex(
      dir,
      Array.from({ length: 5_000 }, (_, i) => ({ id: `id${i}`, name: `${'n'.repeat(250)}${i}` })),
    );
    expect(statSync(join(dir, 'completion-ids.tsv')).size).toBeLessThanOrEqual(ID_INDEX_MAX_BYTES);
  });

  it('an index written otherwise (raw controls planted in it) gives __complete nothing unprintable', async () => {
    const setup = await shellEnv('bash');
    const cache = join(setup.home, '.cache', 'exercises');
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'completion-ids.tsv'), [...HOSTILE, GOOD].map((e) => `${e.id}\t${e.name}`).join('\n') + '\n');
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runCli(['__complete', shell, '2', 'exercises', 'show', ''], { env: setup.env });
      expect(r.stdout).toContain('Plank');
      expect(r.stdout, shell).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(r.stdout.length).toBeLessThan(10_000);
    }
  });
});

if (!HAVE_TMUX) console.warn(`completion-terminal: ${NO_TMUX_MESSAGE}`);

describe.skipIf(!HAVE_TMUX)('a TAB in a real terminal (tmux)', () => {
  const cases = [
    { shell: 'zsh', start: 'zsh -f', load: (s: string) => `autoload -U compinit && compinit -u && source ${s}` },
    { shell: 'bash', start: 'HISTFILE= bash --norc --noprofile', load: (s: string) => `source ${s}` },
    { shell: 'fish', start: 'fish --no-config', load: (s: string) => `source ${s}` },
  ] as const;
  for (const c of cases) {
    const missing = !hasShell(c.shell);
    if (missing) console.warn(`completion-terminal: ${c.shell} not installed, its case is skipped`);
    it.skipIf(missing)(
      `${c.shell}: the title, the screen and the colours stay as they were, and nothing runs`,
      async () => {
        const setup = await shellEnv(c.shell);
        const cache = join(setup.home, '.cache', 'exercises');
        mkdirSync(cache, { recursive: true });
        writeFileSync(join(cache, 'completion-ids.tsv'), [...HOSTILE, ...METACHARACTERS, GOOD].map((e) => `${e.id}\t${e.name}`).join('\n') + '\n');
        // The tmux server (one per test, on its own socket) and so the shell get the private HOME and PATH.
        const server = tmuxServer(`exercises-hostile-tab-${c.shell}`, { TERM: 'xterm-256color', ...setup.env });
        const tmux = server.exec;
        const pane = () => tmux('capture-pane', '-p', '-t', 't');
        const envArgs = Object.entries(setup.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
        try {
          await server.exec('new-session', '-d', '-s', 't', '-x', '160', '-y', '40', ...envArgs, c.start);
          await tmux('set-option', '-g', 'allow-rename', 'on');
          await tmux('set-option', '-g', 'set-titles', 'on');
          await waitForScreen(pane, /\S/); // the shell's first prompt
          await tmux('send-keys', '-t', 't', `${c.load(setup.script)}; echo LOADED""-OK`, 'Enter');
          await waitForScreen(pane, /^LOADED-OK$/m, 20_000);
          await tmux('send-keys', '-t', 't', 'echo BEFORE-TAB-LINE', 'Enter');
          await waitForScreen(pane, /^BEFORE-TAB-LINE$/m);
          // Taken once the shell's next prompt has set it: fish shows the running command as the title
          // (`echo BEFORE-TAB-LINE`) until its prompt puts the directory back there.
          const title = () => tmux('display-message', '-p', '#{pane_title}').then((t) => t.trim());
          const settledTitle = async (): Promise<string> => {
            let last = await title();
            for (let i = 0; i < 200; i++) {
              await new Promise((r) => setTimeout(r, 50));
              const now = await title();
              if (now === last && !now.includes('BEFORE-TAB-LINE')) return now;
              last = now;
            }
            return last;
          };
          const titleBefore = await settledTitle();
          await tmux('send-keys', '-t', 't', 'exercises show ');
          await waitForScreen(pane, 'exercises show');
          // Both at once: the shell reads them one after the other, each completion run to its end.
          await tmux('send-keys', '-t', 't', 'Tab', 'Tab');
          await waitForScreen(pane, /Plank/);
          // The candidates drawn in full: whatever a hostile one did is on the screen by then.
          const screen = await settledScreen(pane);
          const styled = await tmux('capture-pane', '-p', '-e', '-t', 't');
          const titleAfter = await title();
          expect(screen, 'the screen was cleared').toContain('BEFORE-TAB-LINE');
          expect(titleAfter).toBe(titleBefore);
          expect(titleAfter).not.toContain('PWNED');
          expect(styled, 'red text on the screen').not.toMatch(/\u001b\[(?:[0-9;]*;)?31m/);
          expect(screen, screen).toMatch(/Plank/);
          expect(existsSync(marker), 'a candidate ran').toBe(false);
        } finally {
          server.kill();
          // The shell may still be writing its history as it ends: retried.
          rmSync(setup.home, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        }
      },
      30_000,
    );
  }
});
