/**
 * What a TAB should offer, from the completion data and the words typed so far: the
 * command being built, the flags given, and what the word under the cursor is (a command,
 * a flag, a flag's value or an argument). Pure: exercise ids and media names come from the
 * `LocalSources` it is handed, and it never looks anything up over the network. Reading the
 * words typed is parse-line.ts's; this module turns what they mean into candidates.
 */
import type { ArgumentSpec, CommandSpec, CompletionData, ValueCompletion } from './data.js';
import { type ParsedLine, parseLine } from './parse-line.js';

export { type ParsedLine, parseLine } from './parse-line.js';

export interface ExerciseEntry {
  id: string;
  name?: string;
}

/** Where ids, names and media names come from: local files only (fast-path.ts). */
export interface LocalSources {
  /**
   * The first `limit` exercises whose id or name starts with `prefix`, in a stable order;
   * others may come too (they are filtered here).
   */
  exercises(prefix: string, limit: number): Iterable<ExerciseEntry>;
  /** Premium media names of one exercise (by id or exact name), when a local catalogue knows them. */
  mediaNames(idOrName: string, kind: 'image' | 'video'): readonly string[];
}

export interface Candidate {
  /** The whole current word once completed (unquoted): `chest`, `--muscle=chest`, `Barbell Bench Press`. */
  value: string;
  description?: string;
}

export type Completion =
  | { directive: 'words'; candidates: Candidate[] }
  /** Paths starting with `prefix`; `wordPrefix` is what precedes the path in the same word (`--dir=`). */
  | { directive: 'files' | 'dirs'; prefix: string; wordPrefix: string };

/** Enum values and choices compare loosely: any case, `_` or `-` for a space. */
function loose(text: string): string {
  return text.toLowerCase().replace(/[_-]/g, ' ');
}

function fixedValues(values: readonly string[], text: string, wordPrefix: string): Candidate[] {
  // A comma list (`--category strength,car`): complete its last entry.
  const comma = text.lastIndexOf(',');
  const head = comma >= 0 ? text.slice(0, comma + 1) : '';
  const wanted = loose(text.slice(head.length));
  return values.filter((v) => loose(v).startsWith(wanted)).map((v) => ({ value: `${wordPrefix}${head}${v}` }));
}

/**
 * Exercise candidates offered at most: more are no help on a screen (type on to narrow
 * them), and would slow every TAB.
 */
export const MAX_EXERCISE_CANDIDATES = 200;

function exerciseCandidates(sources: LocalSources, text: string, wordPrefix: string): Candidate[] {
  const lower = text.toLowerCase();
  const out: Candidate[] = [];
  const seen = new Set<string>();
  // Found by id as typed (ids are case-sensitive) or by name in any case; always completed to
  // the id, one candidate per exercise, with the name as its description (zsh and fish show it).
  for (const e of sources.exercises(text, MAX_EXERCISE_CANDIDATES + 1)) {
    if (seen.has(e.id) || !(e.id.startsWith(text) || (e.name !== undefined && e.name.toLowerCase().startsWith(lower)))) continue;
    seen.add(e.id);
    out.push({ value: wordPrefix + e.id, ...(e.name ? { description: e.name } : {}) });
    if (out.length > MAX_EXERCISE_CANDIDATES) break;
  }
  if (out.length > MAX_EXERCISE_CANDIDATES) {
    out.length = MAX_EXERCISE_CANDIDATES;
    // What was typed, as one more candidate: shells insert the prefix all candidates share,
    // and the first ones may share more than the rest do.
    out.push({ value: wordPrefix + text, description: 'and more: type more of the id or name' });
  }
  return out;
}

function valueCandidates(
  complete: ValueCompletion | undefined,
  text: string,
  wordPrefix: string,
  line: ParsedLine,
  data: CompletionData,
  sources: () => LocalSources,
): Completion {
  const words = (candidates: Candidate[]): Completion => ({ directive: 'words', candidates });
  if (!complete) return words([]);
  if ('values' in complete) return words(fixedValues(complete.values, text, wordPrefix));
  const starts = (c: Candidate): boolean => c.value.startsWith(wordPrefix + text);
  switch (complete.kind) {
    case 'files':
    case 'dirs':
      return { directive: complete.kind, prefix: text, wordPrefix };
    case 'exercise':
      return words(exerciseCandidates(sources(), text, wordPrefix));
    case 'media-name': {
      const kind = line.commands[line.commands.length - 1]!.name === 'video' ? 'video' : 'image';
      const [exercise, ...named] = line.positionals;
      if (exercise === undefined) return words([]);
      const names = sources()
        .mediaNames(exercise, kind)
        .filter((n) => !named.includes(n));
      return words(names.map((n) => ({ value: wordPrefix + n })).filter(starts));
    }
    case 'config-key':
    case 'settable-config-key':
      return words(
        data.configKeys
          .filter((k) => complete.kind === 'config-key' || k.settable)
          .map((k) => ({ value: wordPrefix + k.key, description: k.description }))
          .filter(starts),
      );
    case 'command': {
      const parent = line.commands[line.commands.length - 2] ?? data.program;
      return words(
        parent.commands
          .filter((c) => c.name !== 'help')
          .map((c) => ({ value: c.name, description: c.description }))
          .filter(starts),
      );
    }
  }
}

/** The argument the next positional word fills: by position, the last one taking the rest when variadic. */
function argumentAt(command: CommandSpec, index: number): ArgumentSpec | undefined {
  const last = command.args[command.args.length - 1];
  return command.args[index] ?? (last?.variadic ? last : undefined);
}

function flagCandidates(commands: readonly CommandSpec[], text: string): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  // The innermost command's flags first, then those of the commands above (the global ones).
  for (let i = commands.length - 1; i >= 0; i--) {
    for (const option of commands[i]!.options) {
      for (const flag of option.flags) {
        if (seen.has(flag) || !flag.startsWith(text)) continue;
        seen.add(flag);
        out.push({ value: flag, description: option.description });
      }
    }
  }
  return out;
}

/** The completion for word `cword` of `words` (words[0] is the program). */
export function complete(data: CompletionData, words: readonly string[], cword: number, sources: (line: ParsedLine) => LocalSources): Completion {
  const { line, target } = parseLine(data, words, cword);
  const lazySources = (): LocalSources => sources(line);
  const command = line.commands[line.commands.length - 1]!;
  switch (target.type) {
    case 'value':
      return valueCandidates(target.option.complete, target.text, target.wordPrefix, line, data, lazySources);
    case 'flag':
      return { directive: 'words', candidates: flagCandidates(line.commands, target.text) };
    case 'command-or-arg': {
      if (command.commands.length > 0 && line.positionals.length === 0) {
        const candidates = command.commands.flatMap((c) =>
          [c.name, ...c.aliases].filter((n) => n.startsWith(target.text)).map((n) => ({ value: n, description: c.description })),
        );
        return { directive: 'words', candidates };
      }
      const arg = argumentAt(command, line.positionals.length);
      return valueCandidates(arg?.complete, target.text, '', line, data, lazySources);
    }
  }
}
