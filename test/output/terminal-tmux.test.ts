/**
 * The CLI in a real terminal: tmux at 80×24 runs the built CLI, and what the screen shows is
 * read back with capture-pane. Help and errors fit the width, the spinner shows only on a
 * terminal and only past its threshold, a budget stop shows the rows fetched, and download
 * progress names `<id>/<file>`. Skipped, with a message, where tmux is not installed.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type TestContext, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { HAVE_TMUX, NO_TMUX_MESSAGE, SIDE_BY_SIDE, SIDE_BY_SIDE_WAIT_MS, type TestEnd, type TmuxServer, tmuxServer, waitForScreen } from '../helpers/tmux.js';

if (!HAVE_TMUX) console.warn(NO_TMUX_MESSAGE);

const WIDTH = 80;
const HEIGHT = 24;
const DONE = '__EXERCISES_DONE__';

let home: string;
let scriptN = 0;

function sh(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A tmux server of the test's own (test/helpers/tmux.ts), with one 80×24 window running `command`. */
class Terminal {
  private readonly tmux: TmuxServer;
  private readonly started: Promise<string>;

  constructor(test: TestEnd, command: string, env: Record<string, string> = {}) {
    this.tmux = tmuxServer('exercises-help', undefined, test);
    const script = join(home, `terminal-${scriptN++}.sh`);
    const exports = Object.entries({
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      EXERCISES_PAGER: 'cat',
      ...env,
    })
      .map(([k, v]) => `export ${k}=${sh(v)}`)
      .join('\n');
    writeFileSync(
      script,
      `${exports}\nunset NO_COLOR FORCE_COLOR\nexercises() { ${sh(process.execPath)} ${sh(CLI_PATH)} "$@"; }\n${command}\necho "exit=$?"\necho ${DONE}\nsleep 60\n`,
    );
    this.started = this.tmux.exec('new-session', '-d', '-x', String(WIDTH), '-y', String(HEIGHT), `sh ${sh(script)}`);
  }

  /** The whole pane, history included; `joined` puts wrapped lines back together (a line over the width shows as one). */
  async capture(options: { joined?: boolean; escapes?: boolean } = {}): Promise<string> {
    await this.started;
    return this.tmux.exec('capture-pane', '-p', '-S', '-', ...(options.joined ? ['-J'] : []), ...(options.escapes ? ['-e'] : []));
  }

  waitFor(pattern: RegExp, timeoutMs = SIDE_BY_SIDE_WAIT_MS): Promise<string> {
    return waitForScreen(() => this.capture(), pattern, timeoutMs);
  }

  async done(): Promise<string> {
    return this.waitFor(new RegExp(DONE));
  }

  close(): void {
    this.tmux.kill();
  }
}

/** `command` run in a terminal of the test's own (its context: the tests run side by side), closed after `use`. */
async function inTerminal<T>(test: TestContext, command: string, env: Record<string, string>, use: (t: Terminal) => Promise<T>): Promise<T> {
  const t = new Terminal(test, command, env);
  try {
    return await use(t);
  } finally {
    t.close();
  }
}

/** The lines of a capture before the done marker, without the `exit=` line. */
function outputLines(screen: string): string[] {
  const lines = screen.split('\n');
  return lines.slice(
    0,
    lines.findIndex((l) => l.startsWith('exit=')),
  );
}

/**
 * A slow service: `/exercise/exerciseIds` in pages of 25 (75 in all); `/exercise/Plank` and its
 * image `start.png`. How slow is said by the key (`service(key)`): under HELD_KEY the first page
 * and the second half of the image wait for the test to release them (once it has seen the
 * spinner or the progress line: a condition, not a time); under SLOW_KEY the first page comes
 * after FIRST_PAGE_DELAY_MS, past the spinner's threshold, for the tests that show no spinner
 * would be drawn even then; under any other key, at once.
 */
let server: Server;
let baseUrl: string;
const HELD_KEY = 'held';
const SLOW_KEY = 'slow';
/** Twice the spinner's delay (src/output/notice.ts SPINNER_DELAY_MS, 300 ms): a spinner would have been drawn. */
const FIRST_PAGE_DELAY_MS = 600;
const PNG_SIZE = 200_000;

/** A gate the server's held answers wait on; the test opens it once it has seen what it waits for. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
const firstPage = gate();
const imageRest = gate();

beforeAll(async () => {
  home = tempDir('exercises-tmux-');
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const key = req.headers['x-api-key'];
    if (url.pathname === '/exercise/exerciseIds') {
      const start = Number(url.searchParams.get('after') ?? '0');
      const items = Array.from({ length: 25 }, (_, i) => ({ id: `Ex_${String(start + i + 1).padStart(3, '0')}`, name: `Exercise ${start + i + 1}` }));
      const next = start + 25 < 75 ? String(start + 25) : null;
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ exercises: items, pagination: { total: 75, next } }));
      };
      if (start > 0) answer();
      else if (key === HELD_KEY) void firstPage.opened.then(answer);
      else if (key === SLOW_KEY) setTimeout(answer, FIRST_PAGE_DELAY_MS);
      else answer();
      return;
    }
    if (url.pathname === '/exercise/Plank') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'Plank', name: 'Plank', premiumImages: ['start'] }));
      return;
    }
    if (url.pathname === '/images/Plank/premium/start.png') {
      const body = Buffer.alloc(PNG_SIZE, 7);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(body);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG_SIZE) });
      if (key !== HELD_KEY) {
        res.end(body);
        return;
      }
      res.write(body.subarray(0, PNG_SIZE / 2));
      void imageRest.opened.then(() => res.end(body.subarray(PNG_SIZE / 2)));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'not_found', message: 'No such thing.' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(home, { recursive: true, force: true });
});

const service = (key = 'k'): Record<string, string> => ({ EXERCISES_BASE_URL: baseUrl, EXERCISES_API_KEY: key });

// Each test has terminals of its own and mostly waits on them: the tests run side by side.
describe.skipIf(!HAVE_TMUX)('in a real terminal (tmux, 80×24)', SIDE_BY_SIDE, () => {
  it("help: no line over the width, the sections in gh's order", async (test) => {
    const commands = ['exercises --help', 'exercises query --help', 'exercises download --help', 'exercises help environment'];
    await Promise.all(
      commands.map((command) =>
        inTerminal(test, command, {}, async (t) => {
          await t.done();
          const lines = outputLines(await t.capture({ joined: true }));
          for (const line of lines) expect(line.length, `${command}: ${line}`).toBeLessThanOrEqual(WIDTH);
          if (command.endsWith('--help')) {
            const titles = lines.filter((l) => /^[A-Z][A-Z ]+$/.test(l));
            const order = [
              'USAGE',
              'CORE COMMANDS',
              'ADDITIONAL COMMANDS',
              'HELP TOPICS',
              'ARGUMENTS',
              'FLAGS',
              'INHERITED FLAGS',
              'JSON FIELDS',
              'EXAMPLES',
              'EXIT CODES',
              'LEARN MORE',
            ];
            const known = titles.filter((title) => order.includes(title));
            expect(known[0]).toBe('USAGE');
            expect(known[known.length - 1]).toBe('LEARN MORE');
            expect([...known].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(known);
          }
        }),
      ),
    );
  });

  it('errors are wrapped at the width, never mid-word, with Error: in red', async (test) => {
    const long = 'a-rather-long-muscle-name-that-matches-nothing-at-all';
    const wrapped = inTerminal(test, `exercises query --muscle ${long} --category strength,cardio`, {}, async (t) => {
      const screen = await t.done();
      const lines = outputLines(screen);
      expect(screen).toContain('exit=2');
      expect(lines[0]).toMatch(/^Error: Unknown --muscle value/);
      for (const line of outputLines(await t.capture({ joined: true }))) expect(line.length).toBeLessThanOrEqual(WIDTH);
      // Every word of the hint is whole on its line.
      expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('Valid values: abdominals, abductors, adductors, biceps,');
      expect(await t.capture({ escapes: true })).toMatch(/\u001b\[31mError:/);
    });
    const unknownFlag = inTerminal(test, 'exercises query --colour red', {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('Error: exercises query has no --colour flag.');
      expect(screen).toContain('Run `exercises query --help` for usage.');
    });
    await Promise.all([wrapped, unknownFlag]);
  });

  it('a slow listing shows the spinner with its count past the threshold, and erases it', async (test) => {
    await inTerminal(test, 'exercises --no-cache ids --all > /dev/null', service(HELD_KEY), async (t) => {
      const during = await t.waitFor(/Fetching exercises/);
      expect(during).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Fetching exercises/);
      firstPage.open();
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      expect(screen).not.toContain('Fetching exercises');
    });
  });

  it('never a spinner in a pipe, nor with -q', async (test) => {
    const err = join(home, 'spinner-stderr.txt');
    await inTerminal(
      test,
      `exercises --no-cache ids --all 2> ${sh(err)} | wc -l; exercises -q --no-cache ids --all > /dev/null`,
      service(SLOW_KEY),
      async (t) => {
        const screen = await t.done();
        expect(screen).toMatch(/^\s*75\s*$/m);
        expect(readFileSync(err, 'utf8')).not.toMatch(/Fetching|⠋/);
        expect(screen).not.toContain('Fetching');
      },
    );
  });

  it('a budget stop on a terminal shows the rows fetched, then the error with a hint for --no-cache', async (test) => {
    await inTerminal(
      test,
      'exercises --no-cache --budget 2 ids --all',
      { ...service(), XDG_CACHE_HOME: join(home, `budget-cache-${Date.now()}`) },
      async (t) => {
        const screen = await t.done();
        const all = await t.capture({ joined: true });
        expect(screen).toContain('exit=5');
        expect(all).toContain('Ex_001');
        expect(all).toContain('Ex_050');
        expect(all).not.toContain('Ex_051');
        expect(all.indexOf('Ex_050')).toBeLessThan(all.indexOf('Error:'));
        expect(all).toContain('a rerun fetches those pages again');
        expect(all).not.toContain('are cached');
      },
    );
  });

  it('the next-page footer breaks only between arguments, and the command on screen pastes as it is', async (test) => {
    const query = 'exercises --sandbox query --category strength --level beginner --mechanic compound --limit 2 --no-pager';
    const pasted = await inTerminal(test, query, {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      // Joined: a line the terminal wrapped would show here as one line over the width.
      const lines = outputLines(await t.capture({ joined: true }));
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(WIDTH);
      const at = lines.findIndex((l) => l.endsWith('· next page:'));
      expect(at, lines.join('\n')).toBeGreaterThan(0);
      const command = lines.slice(at + 1);
      expect(command[0]).toMatch(/^ {2}exercises --sandbox query /);
      expect(command.some((l) => /(^|\s)--after \S+( \\)?$/.test(l))).toBe(true); // the flag and its cursor on one line
      for (const line of command.slice(0, -1)) expect(line).toMatch(/ \\$/); // continued, so a copy of all of them runs
      const header = lines.findIndex((l) => l.startsWith('ID '));
      const firstPage = lines.slice(header + 1, at).map((l) => l.split(' ')[0]!);
      expect(firstPage).toHaveLength(2);
      return { text: command.join('\n'), firstPage };
    });
    // What was on the screen, run as copied: the page after the first two.
    await inTerminal(test, `${pasted.text} --format tsv`, {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      const rows = outputLines(screen).filter((l) => l.trim() !== '');
      expect(rows).toHaveLength(2);
      for (const id of pasted.firstPage) expect(screen).not.toContain(id);
    });
  });

  it('notices fit the width too: quota, a dry run, no match, a language fallback', async (test) => {
    const commands = [
      'exercises quota',
      `exercises --sandbox download Push_Up --dir ${sh(join(home, 'dry'))} --dry-run`,
      'exercises --sandbox query --name "push up"',
      'exercises --sandbox --lang fr-FR show Plank',
    ].join('; ');
    await inTerminal(test, commands, {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      const joined = await t.capture({ joined: true });
      // Prose only: the dry run's rows are data (a path is never broken), left to the terminal.
      for (const line of outputLines(joined).filter((l) => !l.startsWith('fetch '))) expect(line.length, line).toBeLessThanOrEqual(WIDTH);
      const text = joined.replace(/\s+/g, ' ');
      expect(text).toContain('Set a budget with `exercises config set budget <n>`');
      expect(text).toContain('Dry run: would fetch 3 files');
      expect(text).toContain('try --name "push-up"');
      expect(text).toContain('Note: the service has no fr-FR text; the answer is in en-GB.');
    });
  });

  it('the download progress line names <id>/<file>', async (test) => {
    const dir = join(home, 'media');
    await inTerminal(test, `exercises image Plank --dir ${sh(dir)}`, service(HELD_KEY), async (t) => {
      const during = await t.waitFor(/Plank\/start\.png/);
      expect(during).toMatch(/Plank\/start\.png/);
      imageRest.open();
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      // The summary is wrapped at the width: its words, whatever the line breaks.
      expect((await t.capture({ joined: true })).replace(/\s+/g, ' ')).toContain(`files in ${dir}`);
    });
  });
});
