/** The pager: chosen from the environment, used only on a terminal and when allowed, and never a reason to lose output. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGER, pagerCommand, startPager } from '../../src/output/pager.js';
import { writePaged } from '../../src/output/list.js';
import { runInProcess, terminalContext } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('exercises-pager-');
/** A pager that copies its stdin to the file named by its argument, with the LESS it was given first. */
const script = join(dir, 'pager.mjs');
writeFileSync(
  script,
  `import { createWriteStream } from 'node:fs';
const out = createWriteStream(process.argv[2]);
out.write('LESS=' + (process.env.LESS ?? '') + '\\n');
process.stdin.pipe(out);
`,
);

function outFile(name: string): string {
  return join(dir, name);
}

describe('pagerCommand', () => {
  it('takes EXERCISES_PAGER, then PAGER, then less -FRX; cat or empty means none', () => {
    expect(pagerCommand({})).toBe(DEFAULT_PAGER);
    expect(pagerCommand({ PAGER: 'more' })).toBe('more');
    expect(pagerCommand({ PAGER: 'more', EXERCISES_PAGER: 'most' })).toBe('most');
    expect(pagerCommand({ PAGER: 'cat' })).toBeUndefined();
    expect(pagerCommand({ EXERCISES_PAGER: '', PAGER: 'less' })).toBeUndefined();
  });
});

describe('startPager', () => {
  it('sends the output through the pager on a terminal, with LESS=FRX when LESS is unset', async () => {
    const file = outFile('direct.txt');
    const { ctx, stdout } = terminalContext({ env: { EXERCISES_PAGER: `${process.execPath} ${script} ${file}` } });
    const pager = await startPager(ctx, true);
    pager.stream.write('row 1\n');
    pager.stream.write('row 2\n');
    await pager.done();
    expect(readFileSync(file, 'utf8')).toBe('LESS=FRX\nrow 1\nrow 2\n');
    expect(stdout.text()).toBe('');
  });

  it('keeps the LESS the person set', async () => {
    const file = outFile('less.txt');
    const { ctx } = terminalContext({ env: { LESS: 'R', EXERCISES_PAGER: `${process.execPath} ${script} ${file}` } });
    const pager = await startPager(ctx, true);
    await pager.done();
    expect(readFileSync(file, 'utf8')).toBe('LESS=R\n');
  });

  it('runs a command with shell syntax through sh', async () => {
    const file = outFile('shell.txt');
    const { ctx } = terminalContext({ env: { PAGER: `cat > '${file}'` } });
    const pager = await startPager(ctx, true);
    pager.stream.write('through sh\n');
    await pager.done();
    expect(readFileSync(file, 'utf8')).toBe('through sh\n');
  });

  it('writes directly when not allowed (--no-pager), when stdout is not a terminal, or when the pager cannot start', async () => {
    const file = outFile('never.txt');
    const env = { EXERCISES_PAGER: `${process.execPath} ${script} ${file}` };
    for (const [options, enabled] of [
      [{ env }, false],
      [{ env, stdoutIsTTY: false }, true],
      [{ env: { EXERCISES_PAGER: '/nonexistent/pager -R' } }, true],
    ] as const) {
      const { ctx, stdout } = terminalContext(options);
      const pager = await startPager(ctx, enabled);
      pager.stream.write('text\n');
      await pager.done();
      expect(stdout.text()).toBe('text\n');
    }
    expect(() => readFileSync(file)).toThrow();
  });

  it('a pager that quits early is no error: the rest is dropped quietly', async () => {
    const { ctx } = terminalContext({ env: { EXERCISES_PAGER: 'true' } });
    const pager = await startPager(ctx, true);
    const big = 'x'.repeat(1 << 20);
    for (let i = 0; i < 8; i++) pager.stream.write(big);
    await expect(pager.done()).resolves.toBeUndefined();
  });
});

describe('writePaged', () => {
  it('pages text longer than the terminal, and writes shorter text directly', async () => {
    const file = outFile('paged.txt');
    const env = { EXERCISES_PAGER: `${process.execPath} ${script} ${file}` };
    const long = `${Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const short = terminalContext({ env });
    Object.assign(short.stdout, { rows: 60 });
    await writePaged(short.ctx, long, true);
    expect(short.stdout.text()).toBe(long);

    const tall = terminalContext({ env });
    Object.assign(tall.stdout, { rows: 24 });
    await writePaged(tall.ctx, long, true);
    expect(tall.stdout.text()).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(`LESS=FRX\n${long}`);
  });
});

describe('show cards', () => {
  it('go through the pager when taller than the screen, and straight out when they fit', async () => {
    const file = outFile('cards.txt');
    const env = { EXERCISES_PAGER: `${process.execPath} ${script} ${file}` };
    const rows = (n: number) => (t: { stdout: object }) => void Object.assign(t.stdout, { rows: n });
    const tall = await runInProcess(['--sandbox', 'show', 'Push_Up', 'Plank', 'Barbell_Back_Squat'], { env, tty: true, onStart: rows(24) });
    expect(tall.code, tall.stderr).toBe(0);
    expect(tall.stdout).toBe('');
    const paged = readFileSync(file, 'utf8');
    expect(paged).toMatch(/^LESS=FRX\n/);
    expect(paged).toContain('Push_Up');
    expect(paged).toContain('Barbell_Back_Squat');
    const short = await runInProcess(['--sandbox', 'show', 'Plank'], { env, tty: true, onStart: rows(200) });
    expect(short.code).toBe(0);
    expect(short.stdout).toContain('Plank');
    const unpaged = await runInProcess(['--sandbox', 'show', 'Push_Up', 'Plank', 'Barbell_Back_Squat', '--no-pager'], { env, tty: true, onStart: rows(24) });
    expect(unpaged.stdout).toContain('Barbell_Back_Squat');
  });
});
