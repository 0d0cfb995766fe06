/** `exercises completion bash|zsh|fish`: the shell's completion script (TABs are answered by `exercises __complete`). */
import { Argument } from 'commander';
import type { Context } from '../context.js';
import { completionScript, installHelp } from '../completion/scripts.js';
import { type Shell, SHELLS } from '../completion/shell-output.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, addNotes } from './shared/help.js';

export interface CompletionOptions {
  shell: Shell;
}

export async function run(options: CompletionOptions, ctx: Context): Promise<void> {
  ctx.io.stdout.write(completionScript(options.shell));
}

const ABOUT = `
Completes commands, subcommands, flags, enum values (chest, "lower back"), config keys,
file and folder names, and exercise ids and names: from the catalogue directory in use
(--sandbox, --catalogue, EXERCISES_CATALOGUE or the stored catalogue setting), else from
the ids the cache has seen. A TAB never sends a request.
`;

export const register: RegisterCommand<CompletionOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to print the script for').choices(SHELLS));
  addNotes(cmd, 'ABOUT', ABOUT + installHelp());
  addExamples(cmd, ['exercises completion bash', 'exercises completion zsh | less'], []);
  cmd.action(async (shell: Shell) => runF({ shell }, context()));
};
