/**
 * The prompts, shown only when stdin and stdout are terminals, no format was asked for, no CI runs it and
 * --no-input was not given; elsewhere a missing argument stays a usage error. The exercise picker filters
 * what is known as the person types (no request); Enter returns the ids, Esc or Ctrl-C exit 130. With
 * `--pick` in a pipeline it draws on /dev/tty, as fzf does. When nothing is known it offers to list the
 * exercises, naming the cost. A short choice (searchPrompt) uses @inquirer/search.
 */
import { openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';
import type { Context } from '../context.js';
import type { ExerciseSummary } from '../catalogue/types.js';
import { LIMIT_MAX } from '../defaults.js';
import { NotFoundError, PromptCancelledError, UsageError } from '../errors.js';
import { loadMeasure } from '../output/width.js';
import { paginate } from '../api/paging.js';
import { type PickCandidate, candidateOf, fuzzyFilter, mergeCandidates } from './candidates.js';
import { columnsFor, labelOf, previewOf } from './label.js';
import { type PromptTerminal, runPicker } from './picker.js';
import { knownExercises } from './known-exercises.js';
import { loadInquirerSearch } from '../vendor/load.js';

/** Lines shown at a time (fewer on a short terminal). */
const PAGE_SIZE = 10;

interface Choice<V> {
  value: V;
  name: string;
  short?: string;
}

/** The prompt errors of @inquirer/core that mean "the person left". */
const LEFT = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

/** A search prompt whose choices come from `source` on every key; Esc leaves as Ctrl-C does. */
async function searchPrompt<V>(ctx: Pick<Context, 'io'>, message: string, source: (term: string) => Array<Choice<V>>): Promise<V> {
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
    // Paused, stdin no longer holds the process open.
    stdin.pause();
  }
}

export interface PickOptions {
  /** Tab marks several rows. */
  multi?: boolean;
  /** The terminal to draw on, opened beforehand (pickTerminal); by default the run's own. */
  terminal?: OpenedTerminal;
}

/** Lets the person choose among `candidates`; the ids chosen. */
export async function pickExercises(
  ctx: Pick<Context, 'io'>,
  candidates: readonly PickCandidate[],
  message: string,
  options: PickOptions = {},
): Promise<string[]> {
  const terminal = options.terminal ?? pickTerminal(ctx, { orDevTty: false });
  if (!terminal) throw new UsageError('There is no terminal to pick on.', { hint: 'Name the exercises instead (`exercises ids` lists them).' });
  try {
    const measure = await loadMeasure();
    // Two columns for the cursor and the mark, one spare at the margin.
    const cols = columnsFor(candidates, terminal.columns - 3, measure);
    const labels = new Map(candidates.map((c) => [c.id, labelOf(c, cols, measure)]));
    const pageSize = Math.max(1, Math.min(PAGE_SIZE, terminal.rows - 5, candidates.length));
    // Below the list, the last line kept free: a preview where there are at least three rows.
    const previewRows = terminal.rows - 1 - (3 + pageSize);
    const chosen = await runPicker(terminal, {
      message,
      items: candidates,
      filter: (term) => fuzzyFilter(candidates, term, (c) => c.folded),
      keyOf: (c) => c.id,
      line: (c) => labels.get(c.id)!,
      multi: options.multi === true,
      pageSize,
      measure,
      ...(previewRows >= 3 ? { previewRows, preview: (c: PickCandidate, width: number) => previewOf(c, width, measure) } : {}),
    });
    return chosen.map((c) => c.id);
  } finally {
    terminal.close();
  }
}

/** Variables CI systems set. */
const CI_VARIABLES = ['CI', 'BUILD_NUMBER', 'RUN_ID', 'CONTINUOUS_INTEGRATION', 'TF_BUILD', 'JENKINS_URL'];

/** True unless --no-input was given or a CI system runs the command. */
export function mayAsk(ctx: Pick<Context, 'env' | 'globals'>): boolean {
  const inCi = CI_VARIABLES.some((name) => !['', '0', 'false'].includes(ctx.env[name]?.toLowerCase() ?? ''));
  return ctx.globals.input && !inCi;
}

export function canPrompt(ctx: Pick<Context, 'io' | 'env' | 'globals'>): boolean {
  const { io, globals } = ctx;
  const formatAsked = (globals.json !== undefined && globals.json !== false) || globals.format !== undefined;
  return mayAsk(ctx) && !formatAsked && io.stdinIsTTY && io.stdoutIsTTY;
}

export interface OpenedTerminal extends PromptTerminal {
  close(): void;
}

/** /dev/tty for keys and drawing, or undefined without a controlling terminal. */
function controllingTerminal(): OpenedTerminal | undefined {
  let opened: ReadStream | undefined;
  try {
    const input = (opened = new ReadStream(openSync('/dev/tty', 'r')));
    const output = new WriteStream(openSync('/dev/tty', 'w'));
    const close = (): void => {
      input.destroy();
      output.destroy();
    };
    return { input, output, columns: output.columns > 0 ? output.columns : 80, rows: output.rows > 0 ? output.rows : 24, close };
  } catch {
    opened?.destroy(); // the output could not be opened
    return undefined;
  }
}

/** The run's streams when both are terminals, else (with `orDevTty`) the controlling terminal. */
export function pickTerminal(ctx: Pick<Context, 'io'>, options: { orDevTty: boolean }): OpenedTerminal | undefined {
  const { stdin, stdout, columns, stdinIsTTY, stdoutIsTTY } = ctx.io;
  if (!stdinIsTTY || !stdoutIsTTY) return options.orDevTty ? controllingTerminal() : undefined;
  const rows = (stdout as { rows?: unknown }).rows;
  return { input: stdin, output: stdout, columns, rows: typeof rows === 'number' && rows > 0 ? rows : 24, close() {} };
}

/** The id the person picked for `command`; a usage error where no prompt may be shown. */
export async function pickMissingId(ctx: Context, command: string, usage: string): Promise<string> {
  if (!canPrompt(ctx)) {
    throw new UsageError(usage, {
      hint: `At a terminal, \`exercises ${command}\` with no id opens a picker; in a script, name the exercise (\`exercises ids\` lists them).`,
    });
  }
  const known = (await knownExercises(ctx)).candidates;
  const candidates = known.length > 0 ? known : await offerListing(ctx);
  const verb = command === 'show' ? 'show' : `fetch the ${command}s of`;
  return (await pickExercises(ctx, candidates, `Pick an exercise to ${verb} (type to filter):`))[0]!;
}

/** Nothing known yet: offers `ids --all`, naming the requests, before spending any; leaving exits 130. */
async function offerListing(ctx: Context): Promise<PickCandidate[]> {
  const conn = await ctx.connection();
  const choice = await searchPrompt(ctx, `No exercises are known yet (none cached for ${new URL(conn.baseUrl).host}). List them?`, () => [
    { value: 'list', name: `List every exercise id (exercises ids --all): one request per ${LIMIT_MAX} exercises`, short: 'ids --all' },
    { value: 'cancel', name: 'Cancel (no request)', short: 'cancel' },
  ]);
  if (choice !== 'list') throw new PromptCancelledError();
  const api = await ctx.api();
  const items: ExerciseSummary[] = [];
  for await (const item of paginate((cursor) => api.exerciseIds({ ...cursor, limit: LIMIT_MAX }), { limit: LIMIT_MAX })) items.push(item);
  const candidates = mergeCandidates([items.map((e) => candidateOf(e))]);
  if (candidates.length === 0) throw new NotFoundError(`${conn.baseUrl} lists no exercises.`);
  return candidates;
}
