/**
 * Issue 31's pictures: fitted to the terminal in both dimensions (beside a record, the record
 * stays on screen), `--size WxH` to override, and viewing never writes into the working
 * directory (fetched pictures go to the cache directory, counted and cleared by `cache`).
 * Real terminals are tmux panes of the size named, each on a private tmux server it removes.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { isolatedHome } from '../helpers/run-cli.js';
import { tempDirsPerTest } from '../helpers/temp.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { HAVE_TMUX, type TerminalRun, startTerminal } from './tmux.js';
import { pictureBox } from '../../src/commands/shared/view-images.js';
import { fitCells } from '../../src/output/images/fit.js';
import { writePictureCatalogue } from '../helpers/picture-catalogue.js';

const tempDir = tempDirsPerTest('exercises-fit-');
const runs: TerminalRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0)) r.close();
});

async function terminal(args: string[], options: Parameters<typeof startTerminal>[1]): Promise<TerminalRun> {
  const t = await startTerminal(args, { ...options, env: { COLORTERM: 'truecolor', ...options?.env } });
  runs.push(t);
  return t;
}

/** A catalogue with one exercise, Big, whose one premium image `wide` is a 512×384 picture. */
function bigCatalogue(): string {
  const png = new PNG({ width: 512, height: 384 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([(i >> 4) & 255, 90, 160, 255], i);
  return writePictureCatalogue(tempDir(), 'Big', { wide: PNG.sync.write(png) });
}

const blockLines = (screen: string) => screen.split('\n').filter((l) => l.includes('▀'));
const cellsIn = (line: string) => line.split('▀').length - 1;

describe('the cells a picture takes', () => {
  it('fits both dimensions, keeps its proportions, never grows', () => {
    expect(fitCells(512, 384, { columns: 160, rows: 38 })).toEqual({ columns: 101, rows: 38, pixelRows: 76 });
    expect(fitCells(512, 384, { columns: 80, rows: 40 })).toEqual({ columns: 80, rows: 30, pixelRows: 60 });
    expect(fitCells(48, 48, { columns: 160, rows: 40 })).toEqual({ columns: 48, rows: 24, pixelRows: 48 });
  });

  it('beside a record, the pictures share what the record leaves, each at most half the screen', () => {
    // 24 lines, a 16-line record, two pictures: 22 usable lines leave 6, 3 a picture with its name line.
    expect(pictureBox({ columns: 80, rows: 24 }, 2, 16)).toEqual({ columns: 80, rows: 2 });
    expect(pictureBox({ columns: 160, rows: 40 }, 1, 4)).toEqual({ columns: 160, rows: 20 });
    // Alone: the whole screen but the name line and the prompt's.
    expect(pictureBox({ columns: 80, rows: 24 }, 1)).toEqual({ columns: 80, rows: 22 });
  });

  it('--size WxH overrides the terminal; a bad one, or one without a picture to draw, is a usage error', async () => {
    const r = await runInProcess(['--sandbox', 'image', 'Push_Up', 'start', '--view=blocks', '--size', '6x3'], { tty: true, env: { COLORTERM: 'truecolor' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = blockLines(r.stdout);
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => cellsIn(l) === 6)).toBe(true);
    for (const [args, message] of [
      [['image', 'Push_Up', '--view', '--size', '0x3'], /--size takes columns x lines, each from 1 to 1000 \(such as 40x12\), not "0x3"/],
      [['show', 'Push_Up', '--images', '--size', 'big'], /--size takes columns x lines/],
      [['show', 'Push_Up', '--size', '40x12'], /--size goes with --images/],
      [['image', 'Push_Up', '--size', '40x12'], /--size goes with --view/],
    ] as const) {
      const bad = await runInProcess(['--sandbox', ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
  });
});

describe.skipIf(!HAVE_TMUX)('in a real terminal (tmux)', () => {
  it('at 80×24, show Push_Up --images=blocks says in one line how to see its pictures instead of drawing 5-line ones', async () => {
    const t = await terminal(['--sandbox', 'show', 'Push_Up', '--images=blocks'], { width: 80, height: 24 });
    expect(await t.exitCode()).toBe(0);
    const screen = await t.capture();
    expect(screen.split('\n')[0]).toMatch(/^Push-Up {2}\(Push_Up\)/);
    expect(blockLines(screen)).toEqual([]);
    expect(screen.replace(/\n/g, '')).toMatch(
      /too small to recognise beside the record: `exercises image Push_Up --view` draws them, `exercises show Push_Up --web` opens them in the browser\./,
    );
  });

  it('at 80×48, show Push_Up --images=blocks keeps the record and both pictures on the screen', async () => {
    const t = await terminal(['--sandbox', 'show', 'Push_Up', '--images=blocks'], { width: 80, height: 48 });
    expect(await t.exitCode()).toBe(0);
    const screen = await t.capture();
    const used = screen.replace(/\n+$/, '').split('\n');
    expect(used[0]).toMatch(/^Push-Up {2}\(Push_Up\)/); // nothing scrolled away
    expect(used.length).toBeLessThanOrEqual(46);
    expect(used).toContain('start');
    expect(used).toContain('end');
    expect(blockLines(screen).length).toBeGreaterThanOrEqual(16);
  });

  it('at 160×40, image --view draws a 512-pixel picture within the terminal', async () => {
    const t = await terminal(['--catalogue', bigCatalogue(), 'image', 'Big', '--view=blocks'], { width: 160, height: 40 });
    expect(await t.exitCode()).toBe(0);
    const screen = await t.capture();
    expect(screen.split('\n')[0]).toBe('wide'); // its name line is still on screen
    const lines = blockLines(screen);
    expect(lines).toHaveLength(38);
    expect(lines.every((l) => cellsIn(l) === 101)).toBe(true);
  });
});

describe('viewing never writes into the working directory', () => {
  let server: CatalogueServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it.skipIf(!HAVE_TMUX)('show --images against a server: the cwd unchanged, the pictures in the cache directory, counted and cleared by `cache`', async () => {
    const cwd = tempDir();
    const home = isolatedHome();
    try {
      const env = { ...serverEnv(server), HOME: home };
      const t = await terminal(['show', 'Barbell_Bench_Press', '--images=blocks'], { cwd, env, height: 40 });
      expect(await t.exitCode()).toBe(0);
      expect(blockLines(await t.capture()).length).toBeGreaterThan(0);
      expect(readdirSync(cwd)).toEqual([]);
      const kept = join(home, '.cache', 'exercises', 'pictures', 'Barbell_Bench_Press');
      expect(readdirSync(kept).sort()).toEqual(['end.png', 'start.png']);

      const info = await runInProcess(['cache', 'info', '--format', 'json'], { env: { HOME: home } });
      expect(info.code, info.stderr).toBe(0);
      expect(JSON.parse(info.stdout).pictures).toMatchObject({ files: 2 });
      const clear = await runInProcess(['cache', 'clear'], { env: { HOME: home } });
      expect(clear.code, clear.stderr).toBe(0);
      expect(clear.stderr).toMatch(/Removed 2 pictures kept for viewing\./);
      const after = await runInProcess(['cache', 'info', '--format', 'json'], { env: { HOME: home } });
      expect(JSON.parse(after.stdout).pictures).toMatchObject({ files: 0, bytes: 0 });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("image --view in-process: fetched into the cache directory, not --dir's default (the cwd)", async () => {
    const home = isolatedHome();
    try {
      const r = await runInProcess(['image', 'Push_Up', 'start', '--view=kitty', '--size', '8x4'], { tty: true, env: { ...serverEnv(server), HOME: home } });
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(join(home, '.cache', 'exercises', 'pictures', 'Push_Up'))).toEqual(['start.png']);
      expect(readdirSync(process.cwd())).not.toContain('Push_Up');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
