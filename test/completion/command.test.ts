/** `exercises completion <shell>` as a user runs it: the script on stdout, install lines in --help, usage errors. */
import { describe, expect, it } from 'vitest';
import { INSTALL_STEPS } from '../../src/completion/scripts.js';
import { runCli } from '../helpers/run-cli.js';

describe('exercises completion', () => {
  it('prints each shell its script', async () => {
    const bash = await runCli(['completion', 'bash']);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -F _exercises exercises');
    expect(bash.stdout).toContain('source <(exercises completion bash)');
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout.startsWith('#compdef exercises\n')).toBe(true);
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c exercises -f -a '(__exercises_complete)'");
    for (const r of [bash, zsh, fish]) {
      expect(r.stdout).toContain('__complete');
      expect(r.stderr).toBe('');
    }
  });

  it('is a usage error (exit 2) for an unknown or missing shell', async () => {
    const unknown = await runCli(['completion', 'powershell']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/The shell must be bash, zsh or fish, not "powershell"\./);
    const missing = await runCli(['completion']);
    expect(missing.code).toBe(2);
  });

  it('lists the install lines of every shell in --help', async () => {
    const help = await runCli(['completion', '--help']);
    expect(help.code).toBe(0);
    // A line too long for the terminal is continued with ` \` (it still pastes as one command).
    const joined = help.stdout.replace(/ \\\n\s+/g, ' ');
    for (const step of INSTALL_STEPS) for (const line of step.commands) expect(joined).toContain(line);
    expect(help.stdout).toContain('exercises completion zsh > "${fpath[1]}/_exercises"');
    expect(help.stdout).toContain('exercises completion fish > ~/.config/fish/completions/exercises.fish');
    expect(joined.replace(/\s+/g, ' ')).toMatch(/never sends a request/);
  });

  it('answers an unusable __complete line with nothing, successfully', async () => {
    for (const args of [['__complete'], ['__complete', 'tcsh', '1', 'exercises', ''], ['__complete', 'bash', 'x']]) {
      const r = await runCli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('');
    }
  });
});
