/**
 * The prompts. The exercise picker (picker-screen.ts, with fzf's keys) over exercises already
 * known, filtered as the person types (fuzzy.ts), one sanitised line each (label.ts). No
 * request is sent while typing: the source is a list in memory. Enter returns the chosen ids
 * (the marked ones where several may be chosen); Esc or Ctrl-C throws PromptCancelledError
 * (exit 130, nothing printed). It draws on the terminal (prompt-terminal.ts: stdout, or
 * /dev/tty when stdout is a pipe) and is erased when done, so what follows is the answer alone.
 * A short choice among a few options (searchPrompt) uses @inquirer/search, loaded only then.
 */
import type { Context } from '../context.js';
import { PromptCancelledError, UsageError } from '../errors.js';
import { loadMeasure } from '../output/width.js';
import type { PickCandidate } from './candidates.js';
import { fuzzyFilter } from './fuzzy.js';
import { columnsFor, labelOf } from './label.js';
import { runPicker } from './picker-screen.js';
import { promptTerminal } from './prompt-terminal.js';
import { loadInquirerSearch } from '../vendor/inquirer-search.js';

/** Lines shown at a time (fewer on a short terminal: the question, query and count take three more). */
const PAGE_SIZE = 10;

export interface Choice<V> {
  value: V;
  name: string;
  short?: string;
}

/** The prompt errors of @inquirer/core that mean "the person left". */
const LEFT = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

/**
 * Runs a search prompt whose choices come from `source` (called on every key, in memory).
 * Esc leaves as Ctrl-C does: inquirer reads keys through readline, which emits them as
 * `keypress` events on the input stream.
 */
export async function searchPrompt<V>(ctx: Pick<Context, 'io'>, message: string, source: (term: string) => Array<Choice<V>>): Promise<V> {
  const { default: search } = await loadInquirerSearch();
  const { stdin, stdout } = ctx.io;
  const controller = new AbortController();
  const onKey = (_text: unknown, key: { name?: string } | undefined): void => {
    if (key?.name === 'escape') controller.abort();
  };
  stdin.on('keypress', onKey);
  try {
    return await search<V>(
      { message, pageSize: PAGE_SIZE, source: async (term) => source(term ?? '') },
      { input: stdin, output: stdout, clearPromptOnDone: true, signal: controller.signal },
    );
  } catch (err) {
    if (err instanceof Error && LEFT.has(err.name)) throw new PromptCancelledError();
    throw err;
  } finally {
    stdin.off('keypress', onKey);
    // readline leaves stdin flowing: paused, it no longer holds the process open.
    stdin.pause();
  }
}

export interface PickOptions {
  /** Tab marks several rows (the command takes several ids). */
  multi?: boolean;
  /** With stdout not a terminal, draw on /dev/tty (`--pick` in a pipeline). */
  orDevTty?: boolean;
  /** The error when there is no terminal to draw on (the caller's words for it). */
  noTerminal?: Error;
}

/** Lets the person choose among `candidates`; returns the ids chosen (one, or the marked ones with `multi`). */
export async function pickExercises(
  ctx: Pick<Context, 'io'>,
  candidates: readonly PickCandidate[],
  message: string,
  options: PickOptions = {},
): Promise<string[]> {
  const terminal = promptTerminal(ctx, { orDevTty: options.orDevTty === true });
  if (!terminal)
    throw options.noTerminal ?? new UsageError('There is no terminal to pick on.', { hint: 'Name the exercises instead (`exercises ids` lists them).' });
  try {
    const measure = await loadMeasure();
    // Two columns for the cursor and the mark, one spare at the margin.
    const cols = columnsFor(candidates, terminal.columns - 3, measure);
    const labels = new Map(candidates.map((c) => [c.id, labelOf(c, cols, measure)]));
    const chosen = await runPicker(terminal, {
      message,
      items: candidates,
      filter: (term) => fuzzyFilter(candidates, term, (c) => c.folded),
      keyOf: (c) => c.id,
      line: (c) => labels.get(c.id)!,
      multi: options.multi === true,
      pageSize: Math.max(1, Math.min(PAGE_SIZE, terminal.rows - 5)),
      measure,
    });
    return chosen.map((c) => c.id);
  } finally {
    terminal.close();
  }
}

/** Lets the person choose one of `candidates`; returns its id. */
export async function pickExercise(ctx: Pick<Context, 'io'>, candidates: readonly PickCandidate[], message: string): Promise<string> {
  return (await pickExercises(ctx, candidates, message))[0]!;
}
