/**
 * What a TAB should offer, from the completion data and the words typed: pure, with ids and media names
 * from the `LocalSources` it is handed, never the network.
 */
import type { ArgumentSpec, CommandSpec, CompletionData, ValueCompletion } from './data.js';
import { type ParsedLine, parseLine } from './parse-line.js';

export { type ParsedLine, parseLine } from './parse-line.js';

export interface ExerciseEntry {
  id: string;
  name?: string;
}

export interface LocalSources {
  /** The first `limit` exercises whose id or name starts with `prefix`, stable order; others may come (filtered here). */
  exercises(prefix: string, limit: number): Iterable<ExerciseEntry>;
  /** Premium media names of one exercise, when a local catalogue knows them. */
  mediaNames(idOrName: string, kind: 'image' | 'video'): readonly string[];
}

export interface Candidate {
  /** The whole current word once completed (unquoted). */
  value: string;
  description?: string;
}

export type Completion =
  | { directive: 'words'; candidates: Candidate[] }
  /** Paths starting with `prefix`; `wordPrefix` precedes the path in the word (`--dir=`). */
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

/** Exercise candidates offered at most: more are no help on a screen, and slow every TAB. */
export const MAX_EXERCISE_CANDIDATES = 200;

function exerciseCandidates(sources: LocalSources, text: string, wordPrefix: string): Candidate[] {
  const lower = text.toLowerCase();
  const out: Candidate[] = [];
  const seen = new Set<string>();
  // By id as typed or by name in any case; completed to the id, with the name as description.
  for (const e of sources.exercises(text, MAX_EXERCISE_CANDIDATES + 1)) {
    if (seen.has(e.id) || !(e.id.startsWith(text) || (e.name !== undefined && e.name.toLowerCase().startsWith(lower)))) continue;
    seen.add(e.id);
    out.push({ value: wordPrefix + e.id, ...(e.name ? { description: e.name } : {}) });
    if (out.length > MAX_EXERCISE_CANDIDATES) break;
  }
  if (out.length > MAX_EXERCISE_CANDIDATES) {
    out.length = MAX_EXERCISE_CANDIDATES;
    // What was typed, as one more candidate: shells insert the prefix all candidates share.
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

/** The argument the next positional fills; the last takes the rest when variadic. */
function argumentAt(command: CommandSpec, index: number): ArgumentSpec | undefined {
  const last = command.args[command.args.length - 1];
  return command.args[index] ?? (last?.variadic ? last : undefined);
}

function flagCandidates(commands: readonly CommandSpec[], text: string): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  // The innermost command's flags first, then those above.
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
