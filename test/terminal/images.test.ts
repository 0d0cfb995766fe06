/**
 * Pictures in the terminal: the kitty and iTerm2 sequences byte for byte for a known PNG, the
 * half-block cells of a known PNG (in a real terminal, tmux, and as text), scaling to the
 * width, files taken from disk before any request and kept when downloaded, a free plan's
 * record, and nothing of either written when stdout is a pipe.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { halfBlocks, itermSequence, kittySequence } from '../../src/output/images/index.js';
import { fitCells } from '../../src/output/images/fit.js';
import { writePictureCatalogue } from '../helpers/picture-catalogue.js';
import { detectImageProtocol } from '../../src/output/images/protocol.js';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, FREE_KEY, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { HAVE_TMUX, NO_TMUX_MESSAGE, type TerminalRun, startTerminal } from './tmux.js';
import { tempDir as runTempDir } from '../helpers/temp.js';

if (!HAVE_TMUX) console.warn(NO_TMUX_MESSAGE);

const SAMPLE = fileURLToPath(new URL('../../sample/', import.meta.url));
const START = readFileSync(join(SAMPLE, 'images/Barbell_Bench_Press/premium/start.png'));
const END = readFileSync(join(SAMPLE, 'images/Barbell_Bench_Press/premium/end.png'));

/** A 2×4 PNG of known colours, row by row; the seventh pixel fully transparent (drawn black). */
const GRID = [
  [255, 0, 0, 255],
  [0, 255, 0, 255],
  [0, 0, 255, 255],
  [255, 255, 255, 255],
  [0, 0, 0, 255],
  [255, 255, 0, 255],
  [10, 20, 30, 0],
  [128, 128, 128, 255],
];
function gridPng(): Buffer {
  const png = new PNG({ width: 2, height: 4 });
  GRID.forEach((c, i) => png.data.set(c, i * 4));
  return PNG.sync.write(png);
}
/** The cells the grid must give: [upper, lower] colours, two cells a line. */
const GRID_CELLS = [
  [
    ['255;0;0', '0;0;255'],
    ['0;255;0', '255;255;255'],
  ],
  [
    ['0;0;0', '0;0;0'],
    ['255;255;0', '128;128;128'],
  ],
];

/** The box of `--size 20x10`, which the tests give so what is drawn does not depend on the record's length. */
const SIZE = { columns: 20, rows: 10 };

const dirs: string[] = [];
const runs: TerminalRun[] = [];
function tempDir(prefix: string): string {
  const dir = runTempDir(prefix);
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const r of runs.splice(0)) r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A catalogue directory with one exercise, Grid, whose one premium image is the grid. */
function gridCatalogue(): string {
  return writePictureCatalogue(tempDir('exercises-grid-catalogue-'), 'Grid', { grid: gridPng() });
}

/** The ▀ cells of a screen captured with escapes, as [fg, bg] "r;g;b" pairs per line, following the SGR state as a terminal does. */
function parseCells(screen: string): string[][][] {
  const rows: string[][][] = [];
  let fg = 'default';
  let bg = 'default';
  for (const line of screen.split('\n')) {
    const cells: string[][] = [];
    for (const m of line.matchAll(/\u001b\[([\d;]*)m|▀/g)) {
      if (m[0] === '▀') {
        cells.push([fg, bg]);
        continue;
      }
      const params = m[1]!.split(';');
      for (let i = 0; i < params.length; i++) {
        const p = params[i];
        if (p === '38' && params[i + 1] === '2') {
          fg = params.slice(i + 2, i + 5).join(';');
          i += 4;
        } else if (p === '48' && params[i + 1] === '2') {
          bg = params.slice(i + 2, i + 5).join(';');
          i += 4;
        } else if (p === '39') fg = 'default';
        else if (p === '0' || p === '') {
          fg = 'default';
          bg = 'default';
        } else if (p === '49') bg = 'default';
      }
    }
    if (cells.length > 0) rows.push(cells);
  }
  return rows;
}

describe('the escape protocols get the PNG as it is', () => {
  it('kitty: one APC chunk for a small file, byte for byte', () => {
    expect(kittySequence(START, { columns: 20, rows: 10 })).toBe(`\u001b_Ga=T,f=100,c=20,r=10,m=0;${START.toString('base64')}\u001b\\\n`);
  });

  it('kitty: a large file in 4096-byte chunks, m=1 on all but the last', () => {
    const big = Buffer.alloc(10_000, 7);
    const b64 = big.toString('base64');
    expect(b64.length).toBe(13_336);
    const expected =
      `\u001b_Ga=T,f=100,c=3,r=2,m=1;${b64.slice(0, 4096)}\u001b\\` +
      `\u001b_Gm=1;${b64.slice(4096, 8192)}\u001b\\` +
      `\u001b_Gm=1;${b64.slice(8192, 12288)}\u001b\\` +
      `\u001b_Gm=0;${b64.slice(12288)}\u001b\\\n`;
    expect(kittySequence(big, { columns: 3, rows: 2 })).toBe(expected);
  });

  it('iTerm2: one OSC 1337 with the size, byte for byte', () => {
    expect(itermSequence(START, { columns: 20, rows: 10 })).toBe(
      `\u001b]1337;File=inline=1;size=${START.length};width=20;height=10;preserveAspectRatio=1:${START.toString('base64')}\u0007\n`,
    );
  });

  it.each([
    ['kitty', '--images=kitty', kittySequence],
    ['iterm', '--images=iterm', itermSequence],
  ] as const)('show --images=%s writes each image after the record, exactly', async (_name, flag, encode) => {
    const r = await runInProcess(['--sandbox', 'show', 'Barbell_Bench_Press', flag, '--size', '20x10'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    const expected = `start\n${encode(START, SIZE)}end\n${encode(END, SIZE)}`;
    expect(r.stdout.endsWith(expected)).toBe(true);
    expect(r.stdout).toMatch(/^(\u001b\[1m)?Barbell Bench Press/);
  });

  it('image --view=iterm draws only the images named', async () => {
    const r = await runInProcess(['--sandbox', 'image', 'Barbell_Bench_Press', 'end', '--view=iterm', '--size=20x10'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`end\n${itermSequence(END, SIZE)}`);
  });
});

describe('half blocks', () => {
  it('a known PNG gives its expected cells, as truecolour text', async () => {
    const text = await halfBlocks(gridPng(), { columns: 80, rows: 24 }, true);
    const line = (cells: string[][]) => `${cells.map(([t, b]) => `\u001b[38;2;${t};48;2;${b}m▀`).join('')}\u001b[0m\n`;
    expect(text).toBe(GRID_CELLS.map(line).join(''));
  });

  it('in the 256-colour palette when the terminal has no truecolour', async () => {
    const text = await halfBlocks(gridPng(), { columns: 80, rows: 24 }, false);
    // red 196 over blue 21, green 46 over white 231; black 16 twice; yellow 226 over grey 244.
    expect(text).toBe('\u001b[38;5;196;48;5;21m▀\u001b[38;5;46;48;5;231m▀\u001b[0m\n\u001b[38;5;16;48;5;16m▀\u001b[38;5;226;48;5;244m▀\u001b[0m\n');
  });

  it('is scaled down to fit the width and the height, never up', async () => {
    const lines = async (columns: number, rows: number) => (await halfBlocks(START, { columns, rows }, true)).split('\n').filter(Boolean);
    const cellsIn = (line: string) => line.split('▀').length - 1;
    const narrow = await lines(20, 100); // 48×48 at 20 wide: 20 pixel rows, two a line
    expect(narrow).toHaveLength(10);
    expect(narrow.every((l) => cellsIn(l) === 20)).toBe(true);
    const low = await lines(80, 5); // 5 lines hold 10 pixel rows: 10 wide
    expect(low).toHaveLength(5);
    expect(low.every((l) => cellsIn(l) === 10)).toBe(true);
    const roomy = await lines(200, 100);
    expect(roomy).toHaveLength(24);
    expect(cellsIn(roomy[0]!)).toBe(48);
  });

  it.skipIf(!HAVE_TMUX)('a real terminal shows the expected cells (tmux)', async () => {
    const t = await startTerminal(['--catalogue', gridCatalogue(), 'show', 'Grid', '--images=blocks'], { env: { COLORTERM: 'truecolor' } });
    runs.push(t);
    expect(await t.exitCode()).toBe(0);
    expect(parseCells(await t.capture(true))).toEqual(GRID_CELLS);
  });
});

describe('which protocol', () => {
  it.each([
    [{ KITTY_WINDOW_ID: '1', TERM: 'xterm-kitty' }, 'kitty'],
    [{ TERM_PROGRAM: 'iTerm.app' }, 'iterm'],
    [{ TERM_PROGRAM: 'WezTerm' }, 'iterm'],
    [{ TERM: 'xterm-256color' }, 'blocks'],
    [{ TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/tmux-0/default,1,0' }, 'blocks'],
  ])('%o → %s', (env, protocol) => {
    expect(detectImageProtocol(env)).toBe(protocol);
  });

  it('a bad --images value is a usage error', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'Plank', '--images=sixel'], { tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--images takes kitty, iterm, blocks/);
  });
});

describe('never into a pipe', () => {
  it.each([
    [['show', 'Barbell_Bench_Press', '--images=kitty']],
    [['show', 'Barbell_Bench_Press', '--images=iterm']],
    [['show', 'Barbell_Bench_Press', '--images=blocks']],
    [['image', 'Barbell_Bench_Press', '--view=kitty']],
  ])('%o: no image bytes on stdout, a note on stderr', async (args) => {
    const r = await runCli(['--sandbox', ...args], { env: { COLORTERM: 'truecolor' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b_G|\u001b\]1337|▀/);
    expect(r.stderr).toMatch(/Images are not drawn: stdout is not a terminal/);
  });
});

describe('where the images come from', () => {
  let server: CatalogueServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const mediaRequests = () => server.requests.filter((r) => r.path.includes('/images/')).length;

  it('a downloaded image is kept in the --dir layout, and the next run draws it with no media request', async () => {
    const dir = tempDir('exercises-view-dir-');
    const before = mediaRequests();
    const first = await runInProcess(['show', 'Barbell_Bench_Press', '--images=kitty', '--dir', dir, '--size', '20x10'], { tty: true, env: serverEnv(server) });
    expect(first.code, first.stderr).toBe(0);
    expect(mediaRequests()).toBe(before + 2);
    expect(readFileSync(join(dir, 'Barbell_Bench_Press', 'start.png')).equals(START)).toBe(true);
    const second = await runInProcess(['show', 'Barbell_Bench_Press', '--images=kitty', '--dir', dir, '--size', '20x10'], {
      tty: true,
      env: serverEnv(server),
    });
    expect(second.code, second.stderr).toBe(0);
    expect(mediaRequests()).toBe(before + 2);
    expect(second.stdout).toContain(kittySequence(START, SIZE));
  });

  it('a file already on disk is drawn as it is, before any request for it', async () => {
    const dir = tempDir('exercises-view-disk-');
    mkdirSync(join(dir, 'Barbell_Bench_Press'));
    writeFileSync(join(dir, 'Barbell_Bench_Press', 'start.png'), gridPng());
    writeFileSync(join(dir, 'Barbell_Bench_Press', 'end.png'), gridPng());
    const before = mediaRequests();
    const r = await runInProcess(['image', 'Barbell_Bench_Press', 'start', '--view=iterm', '--dir', dir, '--size', '20x10'], {
      tty: true,
      env: serverEnv(server),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(mediaRequests()).toBe(before);
    expect(r.stdout).toBe(`start\n${itermSequence(gridPng(), fitCells(2, 4, SIZE))}`);
  });

  it('a free plan says why there is nothing to draw', async () => {
    const r = await runInProcess(['show', 'Barbell_Bench_Press', '--images=blocks'], { tty: true, env: serverEnv(server, { EXERCISES_API_KEY: FREE_KEY }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/lists no premium images, as a free plan's records never do/);
    expect(r.stdout).not.toMatch(/▀/);
    expect(existsSync(join(process.cwd(), 'Barbell_Bench_Press'))).toBe(false);
  });
});

describe('the flag before the id', () => {
  it.each([
    [['show', '--images', 'Barbell_Bench_Press'], `start\n${itermSequence(START, SIZE)}end\n${itermSequence(END, SIZE)}`, { TERM_PROGRAM: 'iTerm.app' }],
    [['image', '--view', 'Barbell_Bench_Press', 'end'], `end\n${itermSequence(END, SIZE)}`, { TERM_PROGRAM: 'iTerm.app' }],
    [['image', 'Barbell_Bench_Press', '--view', 'end'], `end\n${itermSequence(END, SIZE)}`, { TERM_PROGRAM: 'iTerm.app' }],
  ])('%o takes the value as the id or a name, not a protocol', async (args, tail, env) => {
    const r = await runInProcess(['--sandbox', ...args, '--size', '20x10'], { tty: true, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.endsWith(tail)).toBe(true);
  });
});
