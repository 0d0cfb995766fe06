/**
 * The zsh and fish scripts: syntax-checked by the shells themselves, and the fish one also
 * asked for completions (`complete -C` runs them without a terminal). Skipped where the
 * shell is not installed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { catalogueDir, hasShell, shellEnv } from './shell-driver.js';

describe.skipIf(!hasShell('zsh'))('zsh script', () => {
  it('is valid zsh', async () => {
    const zsh = await shellEnv('zsh');
    const r = spawnSync('zsh', ['-n', zsh.script], { env: zsh.env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('registers _exercises for exercises when sourced after compinit', async () => {
    const zsh = await shellEnv('zsh');
    const r = spawnSync(
      'zsh',
      ['-f', '-c', `autoload -U compinit && compinit -u -d "$HOME/.zcompdump" && source ${zsh.script} && print -r -- $_comps[exercises]`],
      { env: zsh.env, encoding: 'utf8' },
    );
    expect(r.stdout.trim()).toBe('_exercises');
  });
});

describe.skipIf(!hasShell('fish'))('fish script', () => {
  it('is valid fish', async () => {
    const fish = await shellEnv('fish');
    const r = spawnSync('fish', ['--no-execute', fish.script], { env: fish.env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('completes commands, enum values with descriptions left to fish, and ids with the name as description', async () => {
    const dir = catalogueDir([{ id: 'Barbell_Bench_Press', name: 'Barbell Bench Press' }]);
    const fish = await shellEnv('fish', { EXERCISES_CATALOGUE: dir });
    const ask = (line: string): string[] => {
      const r = spawnSync('fish', ['--no-config', '-c', `source ${fish.script}; complete -C ${JSON.stringify(line)}`], { env: fish.env, encoding: 'utf8' });
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    expect(ask('exercises que')).toEqual(['query\tsearch the catalogue with filters']);
    expect(ask('exercises query --muscle lo')).toEqual(['lower back']);
    expect(ask('exercises show "Barbell B')).toEqual(['Barbell_Bench_Press\tBarbell Bench Press']);
    expect(ask('exercises show barb')).toEqual(['Barbell_Bench_Press\tBarbell Bench Press']);
    expect(ask('exercises config set ba')[0]).toMatch(/^base-url\t/);
  });
});
