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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../helpers/run-cli.js';
import { tempDir } from '../helpers/temp.js';
import { HAVE_TMUX, NO_TMUX_MESSAGE, type TmuxServer, tmuxServer, waitForScreen } from '../helpers/tmux.js';

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
  private readonly tmux: TmuxServer = tmuxServer('exercises-help');

  constructor(command: string, env: Record<string, string> = {}) {
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
    this.tmux.exec('new-session', '-d', '-x', String(WIDTH), '-y', String(HEIGHT), `sh ${sh(script)}`);
  }

  /** The whole pane, history included; `joined` puts wrapped lines back together (a line over the width shows as one). */
  capture(options: { joined?: boolean; escapes?: boolean } = {}): string {
    return this.tmux.run('capture-pane', '-p', '-S', '-', ...(options.joined ? ['-J'] : []), ...(options.escapes ? ['-e'] : [])).stdout;
  }

  waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    return waitForScreen(() => this.capture(), pattern, timeoutMs);
  }

  async done(): Promise<string> {
    return this.waitFor(new RegExp(DONE));
  }

  close(): void {
    this.tmux.kill();
  }
}

async function inTerminal<T>(command: string, env: Record<string, string>, use: (t: Terminal) => Promise<T>): Promise<T> {
  const t = new Terminal(command, env);
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
 * A slow service: `/exercise/exerciseIds` in pages of 25 (75 in all), each answered after
 * `pageDelayMs`; `/exercise/Plank` and its image `start.png`, sent in chunks over ~2 s.
 */
let server: Server;
let baseUrl: string;
const pageDelayMs = 600;
const PNG_SIZE = 200_000;

beforeAll(async () => {
  home = tempDir('exercises-tmux-');
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/exercise/exerciseIds') {
      const start = Number(url.searchParams.get('after') ?? '0');
      const items = Array.from({ length: 25 }, (_, i) => ({ id: `Ex_${String(start + i + 1).padStart(3, '0')}`, name: `Exercise ${start + i + 1}` }));
      const next = start + 25 < 75 ? String(start + 25) : null;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ exercises: items, pagination: { total: 75, next } }));
      }, pageDelayMs);
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
      let sent = 0;
      const step = PNG_SIZE / 20;
      const timer = setInterval(() => {
        res.write(body.subarray(sent, sent + step));
        sent += step;
        if (sent >= PNG_SIZE) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.on('close', () => clearInterval(timer));
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

const service = (): Record<string, string> => ({ EXERCISES_BASE_URL: baseUrl, EXERCISES_API_KEY: 'k' });

describe.skipIf(!HAVE_TMUX)('in a real terminal (tmux, 80×24)', () => {
  it("help: no line over the width, the sections in gh's order", async () => {
    for (const command of ['exercises --help', 'exercises query --help', 'exercises download --help', 'exercises help environment']) {
      await inTerminal(command, {}, async (t) => {
        await t.done();
        const lines = outputLines(t.capture({ joined: true }));
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
      });
    }
  });

  it('errors are wrapped at the width, never mid-word, with Error: in red', async () => {
    const long = 'a-rather-long-muscle-name-that-matches-nothing-at-all';
    await inTerminal(`exercises query --muscle ${long} --category strength,cardio`, {}, async (t) => {
      const screen = await t.done();
      const lines = outputLines(screen);
      expect(screen).toContain('exit=2');
      expect(lines[0]).toMatch(/^Error: Unknown --muscle value/);
      for (const line of outputLines(t.capture({ joined: true }))) expect(line.length).toBeLessThanOrEqual(WIDTH);
      // Every word of the hint is whole on its line.
      expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('Valid values: abdominals, abductors, adductors, biceps,');
      expect(t.capture({ escapes: true })).toMatch(/\u001b\[31mError:/);
    });
    await inTerminal('exercises query --colour red', {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('Error: exercises query has no --colour flag.');
      expect(screen).toContain('Run `exercises query --help` for usage.');
    });
  });

  it('a slow listing shows the spinner with its count past the threshold, and erases it', async () => {
    await inTerminal('exercises --no-cache ids --all > /dev/null', service(), async (t) => {
      const during = await t.waitFor(/Fetching exercises/);
      expect(during).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Fetching exercises/);
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      expect(screen).not.toContain('Fetching exercises');
    });
  });

  it('never a spinner in a pipe, nor with -q', async () => {
    const err = join(home, 'spinner-stderr.txt');
    await inTerminal(`exercises --no-cache ids --all 2> ${sh(err)} | wc -l; exercises -q --no-cache ids --all > /dev/null`, service(), async (t) => {
      const screen = await t.done();
      expect(screen).toMatch(/^\s*75\s*$/m);
      expect(readFileSync(err, 'utf8')).not.toMatch(/Fetching|⠋/);
      expect(screen).not.toContain('Fetching');
    });
  });

  it('a budget stop on a terminal shows the rows fetched, then the error with a hint for --no-cache', async () => {
    await inTerminal('exercises --no-cache --budget 2 ids --all', { ...service(), XDG_CACHE_HOME: join(home, `budget-cache-${Date.now()}`) }, async (t) => {
      const screen = await t.done();
      const all = t.capture({ joined: true });
      expect(screen).toContain('exit=5');
      expect(all).toContain('Ex_001');
      expect(all).toContain('Ex_050');
      expect(all).not.toContain('Ex_051');
      expect(all.indexOf('Ex_050')).toBeLessThan(all.indexOf('Error:'));
      expect(all).toContain('a rerun fetches those pages again');
      expect(all).not.toContain('are cached');
    });
  });

  it('the next-page footer breaks only between arguments, and the command on screen pastes as it is', async () => {
    const query = 'exercises --sandbox query --category strength --level beginner --mechanic compound --limit 2 --no-pager';
    const pasted = await inTerminal(query, {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      // Joined: a line the terminal wrapped would show here as one line over the width.
      const lines = outputLines(t.capture({ joined: true }));
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
    await inTerminal(`${pasted.text} --format tsv`, {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      const rows = outputLines(screen).filter((l) => l.trim() !== '');
      expect(rows).toHaveLength(2);
      for (const id of pasted.firstPage) expect(screen).not.toContain(id);
    });
  });

  it('notices fit the width too: quota, a dry run, no match, a language fallback', async () => {
    const commands = [
      'exercises quota',
      `exercises --sandbox download Push_Up --dir ${sh(join(home, 'dry'))} --dry-run`,
      'exercises --sandbox query --name "push up"',
      'exercises --sandbox --lang fr-FR show Plank',
    ].join('; ');
    await inTerminal(commands, {}, async (t) => {
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      const joined = t.capture({ joined: true });
      // Prose only: the dry run's rows are data (a path is never broken), left to the terminal.
      for (const line of outputLines(joined).filter((l) => !l.startsWith('fetch '))) expect(line.length, line).toBeLessThanOrEqual(WIDTH);
      const text = joined.replace(/\s+/g, ' ');
      expect(text).toContain('Set a budget with `exercises config set budget <n>`');
      expect(text).toContain('Dry run: would fetch 3 files');
      expect(text).toContain('try --name "push-up"');
      expect(text).toContain('Note: the service has no fr-FR text; the answer is in en-GB.');
    });
  });

  it('the download progress line names <id>/<file>', async () => {
    const dir = join(home, 'media');
    await inTerminal(`exercises image Plank --dir ${sh(dir)}`, service(), async (t) => {
      const during = await t.waitFor(/Plank\/start\.png/);
      expect(during).toMatch(/Plank\/start\.png/);
      const screen = await t.done();
      expect(screen).toContain('exit=0');
      // The summary is wrapped at the width: its words, whatever the line breaks.
      expect(t.capture({ joined: true }).replace(/\s+/g, ' ')).toContain(`files in ${dir}`);
    });
  });
});
