/**
 * The docs stay true to the repository and the program: every relative link in README.md,
 * CHANGELOG.md and docs/ leads to a file (and heading) that exists, and every `exercises …`
 * command they quote parses with the current program — flags, arguments and enum values
 * checked by the commands' own actions, with each command's run() replaced so nothing runs.
 */
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, type Runners } from '../../src/commands/index.js';
import { runInProcess } from '../helpers/test-context.js';
import { ROOT, anchors, docFiles, quotedCommands, read, relativeLinks, shellSegments } from './markdown.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Pages written on other branches of this round, linked from here before they are merged;
 * each is checked like any other page once it exists.
 */
const WRITTEN_ELSEWHERE = new Set(['docs/design.md', 'docs/team.md', 'docs/terminal.md']);

/** Every command's run() replaced by one that does nothing. */
const NOTHING_RUNS = Object.fromEntries(COMMANDS.map(({ name }) => [name, async () => {}])) as Runners;

describe('markdown helpers', () => {
  it('makes GitHub anchors', () => {
    expect(anchors('# A\n## `exercises show <id-or-name...>` — full records\n## Exit codes\n## Exit codes')).toEqual(
      new Set(['a', 'exercises-show-id-or-name--full-records', 'exit-codes', 'exit-codes-1']),
    );
  });

  it('splits shell lines into the commands they run', () => {
    expect(shellSegments(`exercises ids --all | jq -r .id > out.txt 2>&1 && exercises show "Push Up" - # note`)).toEqual([
      ['exercises', 'ids', '--all'],
      ['jq', '-r', '.id'],
      ['exercises', 'show', 'Push Up', '-'],
    ]);
    expect(shellSegments('cat "$(exercises config path)"')).toEqual([
      ['exercises', 'config', 'path'],
      ['cat', 'SUBST'],
    ]);
    expect(shellSegments('source <(exercises completion bash)')).toEqual([
      ['exercises', 'completion', 'bash'],
      ['source', 'SUBST'],
    ]);
  });

  it('finds the commands in code and inline code, not placeholders', () => {
    const md = '# `exercises x`\n\nRun `exercises ids --all`.\n\n```sh\nFOO=1 exercises show \\\n  Push_Up\nexercises ids --after <cursor>\n```\n';
    expect(quotedCommands('f.md', md).map((c) => c.args)).toEqual([
      ['show', 'Push_Up'],
      ['ids', '--all'],
    ]);
  });
});

describe('the docs', () => {
  const files = docFiles();

  it('include the pages the README promises', () => {
    for (const page of ['commands', 'requests-and-cache', 'media', 'catalogue-and-serve', 'reliability', 'performance', 'development']) {
      expect(files).toContain(`docs/${page}.md`);
    }
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const { line, target } of relativeLinks(read(file))) {
        const [path, fragment] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
        if (!existsSync(join(ROOT, resolved))) {
          if (!WRITTEN_ELSEWHERE.has(resolved)) broken.push(`${file}:${line}: ${target} (no such file)`);
          continue;
        }
        if (fragment && resolved.endsWith('.md') && !anchors(read(resolved)).has(fragment)) {
          broken.push(`${file}:${line}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('quote enough commands to be worth checking', () => {
    const count = files.reduce((n, file) => n + quotedCommands(file, read(file)).length, 0);
    expect(count).toBeGreaterThan(100);
  });

  describe('from a folder holding the catalogue directories they name', () => {
    const cwd = process.cwd();
    const dir = tempDir('exercises-docs-');
    beforeAll(() => {
      // `--catalogue ./catalogue`, `serve ./mirror`…: the settings check the folder is a catalogue.
      for (const name of ['catalogue', 'mirror']) symlinkSync(join(ROOT, 'sample'), join(dir, name));
      mkdirSync(join(dir, 'media'));
      process.chdir(dir);
    });
    afterAll(() => {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    });

    it('quote only `exercises` commands the program accepts', async () => {
      const rejected: string[] = [];
      for (const file of files) {
        for (const { where, args } of quotedCommands(file, read(file))) {
          // stdin a terminal, as where the docs' commands are typed (`auth login` asks for the key there).
          const result = await runInProcess(args, { runners: NOTHING_RUNS, stdinIsTTY: true });
          if (result.code !== 0) rejected.push(`${where}\n  → exit ${result.code}: ${result.stderr.trim().split('\n')[0]}`);
        }
      }
      expect(rejected.join('\n')).toBe('');
    });
  });

  it('catch a command the program rejects', async () => {
    const result = await runInProcess(['query', '--muscle', 'elbow'], { runners: NOTHING_RUNS });
    expect(result.code).toBe(2);
  });
});
