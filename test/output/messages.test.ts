/** Messages a person meets: stdin prompts, empty stdin, a missing id said once, stack traces only for bugs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';
import { reportError } from '../../src/output/errors.js';
import { commanderMessage } from '../../src/output/errors.js';
import { NotFoundError } from '../../src/errors.js';
import { testContext } from '../helpers/test-context.js';

let server: CatalogueServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('reading ids from stdin', () => {
  it('show - on a terminal says on stderr that it waits for ids; in a pipe it says nothing', async () => {
    const tty = await runInProcess(['show', '-', '--format', 'jsonl'], { env: serverEnv(server), input: 'Plank\n', stdinIsTTY: true });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stderr).toMatch(/Waiting for exercise ids on stdin/);
    const piped = await runInProcess(['show', '-', '--format', 'jsonl'], { env: serverEnv(server), input: 'Plank\n' });
    expect(piped.stderr).toBe('');
  });

  it.each([[['show', '-']], [['download', '-', '--dir', '/nonexistent-never-written']]])('%j with empty stdin is the same usage error', async (args) => {
    const r = await runInProcess(args, { env: serverEnv(server), input: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No exercise ids were given on stdin/);
  });
});

describe('failures said once', () => {
  it('show with several ids names each missing one once', async () => {
    const r = await runInProcess(['show', 'Plank', 'No_Such_One', '--format', 'jsonl'], { env: serverEnv(server) });
    expect(r.code).toBe(4);
    expect(r.stderr.match(/No_Such_One/g)).toHaveLength(1);
  });

  it('show with one missing id says so once (the hint gives the query to run with it, no placeholder)', async () => {
    const r = await runInProcess(['show', 'No_Such_One'], { env: serverEnv(server) });
    expect(r.code).toBe(4);
    expect(r.stderr.match(/No_Such_One/g)).toHaveLength(2);
    expect(r.stderr.match(/^Error: .*No_Such_One/gm)).toHaveLength(1);
    expect(r.stderr).toContain('`exercises query --name "No_Such_One"`');
  });

  it('--verbose adds a stack trace for an unexpected error (exit 1) only', () => {
    const verbose = testContext({ globals: { verbose: true } });
    expect(reportError(new NotFoundError('No exercise has the id or name "x".'), verbose.ctx)).toBe(4);
    expect(verbose.stderr.text()).not.toMatch(/\n\s+at /);
    const bug = testContext({ globals: { verbose: true } });
    expect(reportError(new TypeError('boom'), bug.ctx)).toBe(1);
    expect(bug.stderr.text()).toMatch(/\n\s+at /);
  });
});

describe("commander's errors in our words", () => {
  it.each([
    ['an invalid option value: our parser alone', ['query', '--limit', '50'], 'Error: --limit must be a whole number between 1 and 25, not "50".'],
    ['a choice argument', ['completion', 'powershell'], 'Error: The shell must be bash, zsh or fish, not "powershell".'],
    ['an option without its value', ['query', '--muscle'], 'Error: --muscle needs a value: --muscle <muscle>.'],
    ['an unknown flag, with its did-you-mean', ['query', '--limt', '5'], 'Error: exercises query has no --limt flag. Did you mean --limit?'],
    ['an unknown command, with its did-you-mean', ['querz'], 'Error: There is no command called "querz". Did you mean query?'],
    ['too many arguments', ['ids', 'extra'], 'Error: exercises ids takes no arguments; got 1.'],
    ['a missing argument', ['config', 'set', 'lang'], 'Error: exercises config set needs its <value> argument.'],
  ])('%s', async (_kind, args, sentence) => {
    const r = await runInProcess(args, { env: serverEnv(server) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(sentence);
    expect(r.stderr).not.toMatch(/Option '|Command-argument|Allowed choices|argument missing|Unknown option/);
    expect(r.stderr).toMatch(/Run `exercises [a-z ]*--help` for usage\./);
  });
});

describe('commander texts no command of ours meets today', () => {
  it('a required flag and an unknown text are said too', () => {
    expect(
      commanderMessage({ code: 'commander.missingMandatoryOptionValue', message: "error: required option '--dir <dir>' not specified" }, 'exercises x'),
    ).toBe('exercises x needs --dir <dir>.');
    // A template a later commander may change is left to the generic tidying (undefined here).
    expect(commanderMessage({ code: 'commander.unknownOption', message: 'error: something new' }, 'exercises')).toBeUndefined();
  });
});
