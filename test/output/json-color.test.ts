/** --json coloured on a terminal only, the data unchanged; show's cards held for the pager on a terminal. */
import { describe, expect, it } from 'vitest';
import { colorJson } from '../../src/output/colour.js';
import { runInProcess } from '../helpers/test-context.js';

const strip = (text: string): string => text.replace(/\u001b\[\d+m/g, '');

describe('JSON colour', () => {
  it('paints keys, strings, numbers and literals, and takes nothing away', () => {
    const text = JSON.stringify({ id: 'Plank', n: -1.5e3, ok: true, none: null, list: ['a:b', 'say "hi"'] }, null, 2);
    const painted = colorJson(text);
    expect(painted).toContain('\u001b[34m"id"\u001b[39m:');
    expect(painted).toContain('\u001b[32m"Plank"\u001b[39m');
    expect(painted).toContain('\u001b[36m-1500\u001b[39m');
    expect(painted).toContain('\u001b[35mtrue\u001b[39m');
    expect(JSON.parse(strip(painted))).toEqual(JSON.parse(text));
  });

  it('show --json and query --json are coloured on a terminal, plain in a pipe or with NO_COLOR', async () => {
    const tty = await runInProcess(['--sandbox', 'show', 'Plank', '--json'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain('\u001b[34m"name"\u001b[39m');
    expect(JSON.parse(strip(tty.stdout)).id).toBe('Plank');
    const list = await runInProcess(['--sandbox', 'query', '--muscle', 'abs', '--json'], { tty: true });
    expect(list.stdout).toContain('\u001b[34m"id"\u001b[39m');
    const pipe = await runInProcess(['--sandbox', 'show', 'Plank', '--json']);
    expect(pipe.stdout).not.toContain('\u001b[');
    const noColor = await runInProcess(['--sandbox', 'show', 'Plank', '--json'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
  });

  it('show cards on a terminal still arrive whole when held for the pager', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'Plank', 'Push_Up'], { tty: true, env: { EXERCISES_PAGER: 'cat' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plank');
    expect(r.stdout).toContain('Push-Up');
  });
});
