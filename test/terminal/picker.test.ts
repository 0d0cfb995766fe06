/**
 * The picker in a real terminal (tmux): `show`, `image` with no id at a terminal open a
 * search prompt over the exercises already known; typing a fragment filters, Enter runs the
 * command on the choice, Esc and Ctrl-C leave with exit 130 and nothing printed; names from
 * the service show inert. Data: --sandbox (the sample catalogue, in-process) or a catalogue
 * directory written here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { HAVE_TMUX, NO_TMUX_MESSAGE, SIDE_BY_SIDE, terminalTest as it } from './tmux.js';

if (!HAVE_TMUX) console.warn(NO_TMUX_MESSAGE);

const SAMPLE_BENCH = JSON.parse(
  readFileSync(new URL('../../sample/exercises.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .find((l) => l.includes('"Barbell_Bench_Press"'))!,
) as Record<string, unknown>;

// Each test has its own terminal (a tmux server and a CLI) and mostly waits on it: the tests of
// the first two groups run side by side. The last group's share one server and count its requests.
describe.skipIf(!HAVE_TMUX)('the picker at a terminal', SIDE_BY_SIDE, () => {
  it('filters by a typed fragment, and Enter shows the record chosen', async ({ terminal }) => {
    const t = await terminal(['--sandbox', 'show']);
    await t.waitFor('Pick an exercise to show');
    await t.type('dedlift');
    const filtered = await t.waitFor(/❯ Conventional Deadlift/);
    // Primary muscle and equipment beside each, and only the matches.
    expect(filtered).toMatch(/Conventional Deadlift\s+lower back · barbell\s+Conventional_Deadlift/);
    expect(filtered).not.toMatch(/Plank/);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const screen = await t.capture();
    expect(screen).toMatch(/^Conventional Deadlift {2}\(Conventional_Deadlift\)$/m);
    expect(screen).toMatch(/Instructions:/);
    expect(screen).not.toMatch(/Pick an exercise/); // the prompt is erased: the record alone remains
  });

  it('at 80×24, a preview of the highlighted exercise below the list, which follows the highlight', async ({ terminal }) => {
    const t = await terminal(['--sandbox', 'show']);
    await t.type('dead');
    const first = await t.waitFor(/❯ Dead Bug[\s\S]*─{20,}\nDead Bug {2}\(Dead_Bug\)/);
    const preview = first.slice(first.indexOf('──'));
    expect(preview).toMatch(/Primary muscles: abdominals\nEquipment: body only\nLevel: beginner\nInstructions:\n {2}1\. Lie on your back/);
    expect(first.replace(/\n+$/, '').split('\n').length).toBeLessThanOrEqual(23); // the last line kept free
    await t.keys('Down');
    const second = await t.waitFor(/─{20,}\n(?!Dead Bug)\S[^\n]* {2}\(\w+\)/);
    const current = /❯ ([^\n]+?) {2}/.exec(second)![1]!;
    expect(second.slice(second.indexOf('──'))).toContain(`${current}  (`);
    expect(second.slice(second.indexOf('──'))).not.toContain('Dead Bug');
    await t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
  });

  it('show bench at a terminal offers the exercises it names; Enter shows the one chosen', async ({ terminal }) => {
    const t = await terminal(['--sandbox', 'show', 'bench']);
    const screen = await t.waitFor(/"bench" is part of the names of 3 exercises; pick one/);
    expect(screen).toMatch(/3\/3/);
    for (const name of ['Barbell Bench Press', 'Développé Couché Serré', 'Paused Bench Press']) expect(screen).toContain(name);
    await t.type('paused');
    await t.waitFor(/❯ Paused Bench Press/);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(await t.capture()).toMatch(/^Paused Bench Press {2}\(Paused_Bench_Press\)$/m);
  });

  it('show bench in a pipe stays the error listing them (exit 4)', async ({ terminal, scratchDir }) => {
    const out = join(scratchDir('exercises-bench-pipe-'), 'out');
    const t = await terminal(['--sandbox', 'show', 'bench'], {}, { stdoutFile: out });
    expect(await t.exitCode()).toBe(4);
    expect((await t.capture()).replace(/\n/g, ' ')).toMatch(/"bench" is part of the names of 3 exercises; give one of their ids:/);
  });

  it('matches names without their accents and in any case', async ({ terminal }) => {
    const t = await terminal(['--sandbox', 'show']);
    await t.waitFor('Pick an exercise');
    await t.type('DEVELOPPE COUCHE');
    const screen = await t.waitFor(/❯ Développé Couché Serré/);
    expect(screen).toMatch(/triceps · barbell/);
    await t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });

  it('image with no id picks, then fetches the images of the choice', async ({ terminal, scratchDir }) => {
    const dir = scratchDir('exercises-pick-media-');
    const t = await terminal(['--sandbox', 'image', '--dir', dir]);
    await t.waitFor('Pick an exercise to fetch the images of');
    await t.type('plank');
    await t.waitFor(/❯ Plank/);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(await t.capture()).toMatch(/Fetched 2 files/);
  });

  it.for(['Escape', 'C-c'])('%s leaves with exit 130 and prints nothing', async (key, { terminal }) => {
    const t = await terminal(['--sandbox', 'show']);
    await t.waitFor('Pick an exercise');
    await t.type('bench');
    await t.waitFor(/❯ Barbell Bench Press/);
    await t.keys(key);
    expect(await t.exitCode()).toBe(130);
    expect((await t.capture()).trim()).toBe('');
  });

  it('shows a hostile name inert: no colour, no title change, the escapes visible as text', async ({ terminal, scratchDir }) => {
    const dir = scratchDir('exercises-hostile-catalogue-');
    const hostile = {
      id: 'Evil_Curl',
      name: 'Evil \u001b[31mRED\u001b[0m \u202e\u001b]0;pwned\u0007',
      category: 'STRENGTH',
      primaryMuscle: ['BICEPS'],
      equipment: 'DUMBBELL',
      instructions: ['Curl.'],
    };
    const plain = { id: 'Plain_Curl', name: 'Plain Curl', category: 'STRENGTH', primaryMuscle: ['BICEPS'], equipment: 'DUMBBELL', instructions: ['Curl.'] };
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify(hostile)}\n${JSON.stringify(plain)}\n`);
    const t = await terminal(['--catalogue', dir, 'show']);
    await t.waitFor('Pick an exercise');
    await t.type('evil');
    const screen = await t.waitFor(/❯ Evil/);
    expect(screen).toContain('Evil \\x1b[31mRED\\x1b[0m \\u202e\\x1b]0;pwned');
    const coloured = await t.capture(true);
    expect(coloured).not.toMatch(/\u001b\[31m/);
    expect(await t.display('#{pane_title}')).not.toContain('pwned');
    await t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
  });

  it('--no-input and CI never prompt: the usage error, exit 2', async ({ terminal }) => {
    const noInput = await terminal(['--sandbox', '--no-input', 'show']);
    expect(await noInput.exitCode()).toBe(2);
    expect(await noInput.capture()).toMatch(/Give at least one exercise id or name/);
    const ci = await terminal(['--sandbox', 'video'], { CI: 'true' });
    expect(await ci.exitCode()).toBe(2);
    expect(await ci.capture()).toMatch(/Give the id or name of the exercise/);
  });

  it('query --pick chooses among the results, then shows the record', async ({ terminal }) => {
    const t = await terminal(['--sandbox', 'query', '--muscle', 'chest', '--pick']);
    await t.waitFor(/Pick among \d+ results to show/);
    await t.type('push');
    await t.waitFor(/❯ Push-Up\s+chest · body only/);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(await t.capture()).toMatch(/^Push-Up {2}\(Push_Up\)$/m);
  });
});

describe.skipIf(!HAVE_TMUX)("the picker with fzf's keys, and a pick that composes", SIDE_BY_SIDE, () => {
  const jsonlIds = (text: string): string[] =>
    text
      .trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { id: string }).id);

  it('with stdout in a file, it draws on the terminal and the file holds the record chosen, in the format asked', async ({ terminal, scratchDir }) => {
    const dir = scratchDir('exercises-pick-file-');
    const file = join(dir, 'f');
    const t = await terminal(['--sandbox', 'query', '--muscle', 'chest', '--pick', '--format', 'jsonl'], {}, { stdoutFile: file });
    const first = await t.waitFor(/Pick among \d+ results to print/);
    expect(first).toMatch(/^ {2}\d+\/\d+ {2}\(0 marked; Tab marks\)$/m);
    await t.type('bench pre');
    await t.waitFor(/^ {2}2\/\d+ /m);
    // The count and the rows may reach the screen in separate writes: wait for the row too.
    await t.waitFor(/❯ Barbell Bench Press/);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(jsonlIds(readFileSync(file, 'utf8'))).toEqual(['Barbell_Bench_Press']);
    // The picker was erased from the terminal, and none of it went to the file.
    expect(await t.capture()).not.toMatch(/Pick among/);
    expect(readFileSync(file, 'utf8')).not.toContain('Pick among');
  });

  it('Tab marks two rows (Ctrl-N / Ctrl-P move), and both are printed, in the order marked', async ({ terminal, scratchDir }) => {
    const dir = scratchDir('exercises-pick-marks-');
    const file = join(dir, 'f');
    const t = await terminal(['--sandbox', 'query', '--muscle', 'chest', '--pick', '--json', 'id'], {}, { stdoutFile: file });
    await t.waitFor(/Pick among/);
    await t.type('bench');
    await t.waitFor(/❯ Barbell Bench Press/);
    await t.keys('C-n');
    await t.waitFor(/❯ Paused Bench Press/);
    await t.keys('Tab');
    await t.waitFor(/\(1 marked/);
    await t.keys('C-p');
    await t.waitFor(/❯ Barbell Bench Press/);
    await t.keys('Tab');
    const marked = await t.waitFor(/\(2 marked/);
    expect(marked).toMatch(/^.\+Paused Bench Press/m);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    const printed = JSON.parse(readFileSync(file, 'utf8')) as Array<{ id: string }>;
    expect(printed).toEqual([{ id: 'Paused_Bench_Press' }, { id: 'Barbell_Bench_Press' }]);
  });

  it('`query --pick --format jsonl | exercises download -` downloads what was picked', async ({ terminal, scratchDir }) => {
    const dir = scratchDir('exercises-pick-pipe-');
    const t = await terminal(
      ['--sandbox', 'query', '--muscle', 'abdominals', '--pick', '--format', 'jsonl'],
      {},
      { pipeInto: ['--sandbox', 'download', '-', '--dir', dir] },
    );
    await t.waitFor(/Pick among/);
    await t.type('plank');
    await t.waitFor(/❯ Plank/);
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(existsSync(join(dir, 'Plank', 'start.png'))).toBe(true);
  });

  it('Tab where one exercise is wanted neither marks nor copies the row into the query', async ({ terminal }) => {
    const t = await terminal(['--sandbox', 'show']);
    await t.waitFor('Pick an exercise to show');
    await t.type('plank');
    await t.waitFor(/❯ Plank/);
    await t.keys('Tab');
    await t.type('x');
    const screen = await t.waitFor(/^> plankx/m);
    expect(screen).not.toMatch(/marked/);
    await t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
  });

  it('at 80 columns a long id is shown whole while the name has room', async ({ terminal, scratchDir }) => {
    const dir = scratchDir('exercises-long-id-');
    // A record of the sample with a long id: the longest the picker must keep whole.
    const long = { ...SAMPLE_BENCH, id: 'Bench_Press_-_With_Bands_And_Chains', name: 'Bench Press - With Bands' };
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify(long)}\n`);
    const t = await terminal(['--catalogue', dir, 'show']);
    const screen = await t.waitFor('Pick an exercise');
    expect(screen).toContain('Bench_Press_-_With_Bands_And_Chains');
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    await t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
  });
});

describe.skipIf(!HAVE_TMUX)('the picker over what the cache knows', () => {
  let server: CatalogueServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('with nothing known it says so, and lists the exercises only when asked, naming the cost', async ({ terminal }) => {
    const t = await terminal(['show'], serverEnv(server));
    // The question and its explanation may reach the screen in separate writes: wait for the whole offer.
    const offer = await t.waitFor(/List every exercise id \(exercises ids --all\): one request per \d+ exercises/);
    expect(offer).toContain('No exercises are known yet');
    expect(server.requests).toHaveLength(0); // nothing spent before the answer
    await t.keys('Enter');
    await t.waitFor('Pick an exercise to show');
    const listed = server.requests.length;
    expect(listed).toBeGreaterThan(0);
    await t.type('plank');
    await t.waitFor(/❯ Plank/);
    expect(server.requests.length).toBe(listed); // no request while typing
    await t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(await t.capture()).toMatch(/^Plank {2}\(Plank\)$/m);
  });

  it('after a query, the picker offers its results from the cache with their muscles, and sends nothing while typing', async ({ terminal, scratchDir }) => {
    const home = scratchDir('exercises-pick-home-');
    const env = serverEnv(server, { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), XDG_CONFIG_HOME: join(home, '.config') });
    const listed = await runCli(['query', '--muscle', 'chest', '--format', 'json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const before = server.requests.length;
    const t = await terminal(['show'], env);
    await t.waitFor('Pick an exercise to show');
    await t.type('cable');
    await t.waitFor(/❯ Cable Crossover/);
    expect(server.requests.length).toBe(before);
    await t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
  });
});
