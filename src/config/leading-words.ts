/**
 * The words a command line starts with, after the global flags and their values: `--lang de-DE
 * show Push_Up` → ['show', 'Push_Up']. The CLI declares only the command those words name
 * (cli.ts), and the launcher names its code cache after it (bin/startup/run-bundle.js, through
 * the small dist/bundle/leading-words.cjs, which has the global flags' table built in), so
 * both read a command line by this one rule. No imports: the launcher loads it on every start.
 */

/** How a flag takes a value: not at all (`--quiet`), always (`--lang <code>`), or when attached (`--json[=fields]`). */
export type FlagArity = 'none' | 'required' | 'optional';

/** Each spelling of each flag (`-v` and `--verbose`), with its arity, from commander-style declarations. */
export function flagArities(declarations: readonly string[]): Record<string, FlagArity> {
  const arities: Record<string, FlagArity> = {};
  for (const declaration of declarations) {
    const arity: FlagArity = declaration.includes('<') ? 'required' : declaration.includes('[') ? 'optional' : 'none';
    for (const spelling of declaration.match(/--?[a-zA-Z][\w-]*/g) ?? []) arities[spelling] = arity;
  }
  return arities;
}

/**
 * The words before the first flag that is not a global one; the global flags met on the way
 * are in `flags`. A global flag's value is skipped (attached with `=`, or the next argument
 * when the value is required). A flag whose value is optional and not attached (`--json
 * show`: commander may take `show` as its value) ends the words, as an unknown flag does.
 */
export function leadingWords(args: readonly string[], arities: Readonly<Record<string, FlagArity>>): { words: string[]; flags: string[] } {
  const words: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-' || !arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const flag = arg.startsWith('--') ? arg.split('=')[0]! : arg;
    const arity = Object.hasOwn(arities, flag) ? arities[flag] : undefined;
    if (arity === undefined || (arity === 'optional' && flag === arg)) break;
    flags.push(flag);
    if (arity === 'required' && flag === arg) i++; // its value is the next argument
  }
  return { words, flags };
}
