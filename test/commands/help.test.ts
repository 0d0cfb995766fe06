/** Help as a new user meets it: bare group commands, inherited flags, the reference tables, no default noise. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { environmentVariables } from '../../src/config/settings-docs.js';
import { EXIT_CODE_TABLE } from '../../src/errors.js';

describe('help', () => {
  it.each([[[]], [['auth']], [['config']], [['cache']], [['help']]])('exercises %j with nothing else prints help on stdout and exits 0', async (args) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nUSAGE\n {2}exercises /);
    expect(r.stderr).toBe('');
  });

  it("the top-level help is gh's layout: commands grouped, few flags, examples, learn more", async () => {
    const r = await runInProcess(['--help'], { columns: 100 });
    const order = ['USAGE', 'CORE COMMANDS', 'ADDITIONAL COMMANDS', 'HELP TOPICS', 'FLAGS', 'EXAMPLES', 'EXIT CODES', 'LEARN MORE'];
    const at = order.map((title) => r.stdout.indexOf(`\n${title}\n`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const core = r.stdout.slice(at[1], at[2]);
    for (const name of ['query', 'ids', 'show', 'image', 'video', 'download']) expect(core).toContain(`  ${name}:`);
    expect(core).not.toContain('config:');
    expect(r.stdout).toContain('exercises help global-flags');
    expect(r.stdout).not.toContain('--no-pager'); // the full list is one topic away
    expect(r.stdout.split('\n').length).toBeLessThan(70);
  });

  it.each([[60], [80], [200]])('no help line is wider than the terminal (%i columns) and commands show few inherited flags', async (columns) => {
    const commands = [
      [],
      ['query'],
      ['ids'],
      ['show'],
      ['image'],
      ['video'],
      ['download'],
      ['auth'],
      ['auth', 'login'],
      ['config'],
      ['config', 'set'],
      ['cache'],
      ['quota'],
      ['serve'],
      ['completion'],
      ['mirror'],
    ];
    for (const cmd of commands) {
      const r = await runInProcess([...cmd, '--help'], { columns });
      expect(r.code).toBe(0);
      for (const line of r.stdout.split('\n')) expect(line.length, `${cmd.join(' ')}: ${line}`).toBeLessThanOrEqual(Math.max(columns, 40));
      if (cmd.length > 0) {
        expect(r.stdout).toMatch(/\nINHERITED FLAGS\n {2}-h, --help[\s\S]*exercises help global-flags/);
        expect(r.stdout).not.toContain('--no-pager');
      }
    }
  });

  it("commands with --json list its fields; sections come in gh's order", async () => {
    const r = await runInProcess(['show', '--help']);
    const order = ['USAGE', 'ARGUMENTS', 'INHERITED FLAGS', 'JSON FIELDS', 'EXAMPLES', 'LEARN MORE'];
    const at = order.map((title) => r.stdout.indexOf(`\n${title}\n`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(r.stdout).toMatch(/JSON FIELDS\n {2}id, name, displayName, aliases, category,/);
    expect(r.stdout).not.toMatch(/GET \//); // no HTTP routes in descriptions
  });

  it('query --help fits in 80 lines at 80 columns, naming the muscle words once', async () => {
    const r = await runInProcess(['query', '--help'], { columns: 80 });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(80);
    expect(r.stdout.match(/hamstrings/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/--secondary-muscle <muscle> +Secondary muscle, in the words --muscle takes\./);
  });

  it('help global-flags lists every global flag, wrapped', async () => {
    const r = await runInProcess(['help', 'global-flags'], { columns: 60 });
    expect(r.code).toBe(0);
    for (const flag of ['--base-url', '--api-key', '--format', '--json', '--no-pager', '--budget', '--offline', '--sandbox']) expect(r.stdout).toContain(flag);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("help <unknown> is a usage error with a suggestion; help <command> is that command's help", async () => {
    const bad = await runInProcess(['help', 'quer']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('Did you mean query?');
    const topic = await runInProcess(['help', 'enviroment']);
    expect(topic.code).toBe(2);
    expect(topic.stderr.replace(/\s+/g, ' ')).toContain('Did you mean environment?');
    const good = await runInProcess(['help', 'query']);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('exercises query [flags]');
  });

  it('exercises version prints the version', async () => {
    const r = await runInProcess(['version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('no "(default: false)" on boolean flags and no doubled defaults', async () => {
    for (const cmd of [
      [],
      ['query'],
      ['ids'],
      ['show'],
      ['image'],
      ['video'],
      ['download'],
      ['auth', 'login'],
      ['auth', 'status'],
      ['config', 'set'],
      ['serve'],
    ]) {
      const r = await runInProcess([...cmd, '--help'], { columns: 200 });
      expect(r.stdout).not.toMatch(/\(default: false\)|\(default: true\)|\(default\) \(default/);
    }
  });

  it('help environment lists every variable of the one table, within 80 columns, and the reference documents each', async () => {
    const r = await runInProcess(['help', 'environment'], { columns: 80 });
    expect(r.code).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const reference = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
    const section = reference.slice(reference.indexOf('## Environment variables'), reference.indexOf('## Exit codes'));
    for (const { name } of environmentVariables()) {
      expect(r.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
      expect(section).toContain(`| \`${name}\` |`);
    }
  });

  it('help environment names each variable that changes what the program does, BROWSER and the proxies included', async () => {
    const r = await runInProcess(['help', 'environment'], { columns: 80 });
    for (const name of ['BROWSER', 'HTTPS_PROXY', 'NO_PROXY', 'EXERCISES_PAGER', 'NO_COLOR']) expect(r.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
  });

  it('help exit-codes prints the exit-code table', async () => {
    const r = await runInProcess(['--quiet', 'help', 'exit-codes']);
    expect(r.code).toBe(0);
    for (const { code } of EXIT_CODE_TABLE) expect(r.stdout).toMatch(new RegExp(`^ {2} *${code}  \\w`, 'm'));
  });
});

describe('enum lists in help', () => {
  it('--muscle lists the muscles as completion offers them, alphabetical, with everyday synonyms', async () => {
    const r = await runInProcess(['query', '--help'], { columns: 1000 });
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('  --muscle'))!;
    const list = /: (.*) or ([a-z ]+) \(also everyday words such as ([^)]*)\)/.exec(line)!;
    expect(list, line).not.toBeNull();
    const muscles = [...list[1]!.split(', '), list[2]!];
    expect(muscles).toEqual([...muscles].sort());
    expect(muscles).toContain('lower back');
    expect(muscles.slice(0, 3)).toEqual(['abdominals', 'abductors', 'adductors']);
    expect(list[3]).toContain('abs');
    expect(r.stdout).not.toMatch(/LOWER_BACK|ABDOMINALS/);
    const equipment = r.stdout.split('\n').find((l) => l.startsWith('  --equipment'))!;
    expect(equipment).toContain('ez curl bar');
    expect(equipment).toContain('kb');
  });
});
