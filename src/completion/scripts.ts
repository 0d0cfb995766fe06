/** The scripts `exercises completion bash|zsh|fish` prints: each asks `exercises __complete` on every TAB (files left to the shell). */
import type { Shell } from './shell-output.js';

/** One way to install a script, for `completion --help` and the README. */
export interface InstallStep {
  shell: Shell;
  when: string;
  commands: string[];
}

export const INSTALL_STEPS: readonly InstallStep[] = [
  { shell: 'bash', when: 'this shell only', commands: ['source <(exercises completion bash)'] },
  {
    shell: 'bash',
    when: 'every new shell (with the bash-completion package)',
    commands: ['mkdir -p ~/.local/share/bash-completion/completions', 'exercises completion bash > ~/.local/share/bash-completion/completions/exercises'],
  },
  { shell: 'zsh', when: 'every new shell (a folder in $fpath, before compinit runs)', commands: ['exercises completion zsh > "${fpath[1]}/_exercises"'] },
  { shell: 'zsh', when: 'or in ~/.zshrc, after compinit', commands: ['source <(exercises completion zsh)'] },
  { shell: 'fish', when: 'every new shell', commands: ['exercises completion fish > ~/.config/fish/completions/exercises.fish'] },
];

export function installHelp(): string {
  const steps = INSTALL_STEPS.map((s) => `  ${s.shell}, ${s.when}:\n${s.commands.map((c) => `    $ ${c}`).join('\n')}`);
  return `\nInstall:\n${steps.join('\n')}\n`;
}

function header(shell: Shell): string {
  const steps = INSTALL_STEPS.filter((s) => s.shell === shell).flatMap((s) => [`#   ${s.when}:`, ...s.commands.map((c) => `#     ${c}`)]);
  return [`# ${shell} completion for exercises, printed by \`exercises completion ${shell}\`. Install:`, ...steps].join('\n');
}

const BASH = `
_exercises() {
    local IFS=$'\\n' directive
    local -a lines
    COMPREPLY=()
    read -r -d '' -a lines < <(command exercises __complete bash "$COMP_CWORD" "\${COMP_WORDS[@]}" 2>/dev/null) || :
    directive=\${lines[0]-}
    case \${directive%%$'\\t'*} in
        words) COMPREPLY=("\${lines[@]:1}") ;;
        files)
            compopt -o filenames 2>/dev/null
            read -r -d '' -a COMPREPLY < <(compgen -f -- "\${directive#*$'\\t'}") || : ;;
        dirs)
            compopt -o filenames 2>/dev/null
            read -r -d '' -a COMPREPLY < <(compgen -d -- "\${directive#*$'\\t'}") || : ;;
    esac
}
complete -F _exercises exercises
`;

const ZSH = `
_exercises() {
    local -a lines candidates parts
    local directive
    lines=("\${(@f)$(command exercises __complete zsh $((CURRENT - 1)) "\${words[@]}" 2>/dev/null)}")
    directive=\${lines[1]}
    parts=("\${(@ps:\\t:)directive}")
    case \${parts[1]} in
        words)
            candidates=("\${(@)lines[2,-1]}")
            # Lower case matches upper, and a space (typed as \\ or inside quotes) an underscore:
            # a name typed in any case completes to its exercise's id.
            (( \${#candidates} )) && _describe -t values 'exercises' candidates -M 'm:{[:lower:]}={[:upper:]} m:\\\\ =_ m:\\ =_'
            ;;
        files|dirs)
            [[ -n \${parts[3]} ]] && compset -P '*='
            if [[ \${parts[1]} == dirs ]]; then _files -/; else _files; fi
            ;;
    esac
}
if [[ \${funcstack[1]} == _exercises ]]; then
    _exercises "$@"
else
    compdef _exercises exercises
fi
`;

const FISH = `
function __exercises_complete
    set -l current (commandline -ct)
    set -l tokens (commandline -opc | string escape) "$current"
    set -l lines (command exercises __complete fish (math (count $tokens) - 1) $tokens 2>/dev/null)
    set -l directive (string split \\t -- $lines[1])
    set -e lines[1]
    switch "$directive[1]"
        case words
            printf '%s\\n' $lines
        case files
            for path in (__fish_complete_path $directive[2])
                printf '%s%s\\n' "$directive[3]" $path
            end
        case dirs
            for path in (__fish_complete_directories $directive[2])
                printf '%s%s\\n' "$directive[3]" $path
            end
    end
end
complete -c exercises -f -a '(__exercises_complete)'
`;

export function completionScript(shell: Shell): string {
  const body = shell === 'bash' ? BASH : shell === 'zsh' ? ZSH : FISH;
  return `${shell === 'zsh' ? '#compdef exercises\n' : ''}${header(shell)}\n${body}`;
}
