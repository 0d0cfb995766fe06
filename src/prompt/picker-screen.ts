/**
 * The picker drawn on a terminal: the question, the query line, the match count (and the
 * marks, where several may be chosen), then a page of rows, the current one behind `❯` and a
 * marked one with `+`. Keys are read raw (node:readline's keypress events) and handled by
 * picker-state.ts; every frame redraws the block in place, each line cut to the width so that
 * nothing wraps, and the block is erased when the picker closes, so what follows on the
 * terminal is the answer alone.
 */
import { emitKeypressEvents } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { PromptCancelledError } from '../errors.js';
import type { Measure } from '../output/width.js';
import { type Key, type PickerRules, type PickerState, initialState, press } from './picker-state.js';

/** The terminal the picker draws on: the run's own streams, or /dev/tty (prompt-terminal.ts). */
export interface PromptTerminal {
  input: Readable & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: Writable;
  columns: number;
  rows: number;
}

export interface PickerView<T> extends PickerRules<T> {
  message: string;
  /** Every row. */
  items: readonly T[];
  /** The text of a row, at most `width` columns (label.ts). */
  line(item: T): string;
  measure: Measure;
}

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const CLEAR_DOWN = '\u001b[J';

/** The lines of one frame, each within `width` columns. */
export function frameLines<T>(view: PickerView<T>, state: PickerState<T>, width: number): string[] {
  const fit = (text: string): string => view.measure.truncate(text, width);
  const marks = view.multi ? `  (${state.marked.length} marked; Tab marks)` : '';
  const lines = [fit(view.message), fit(`> ${state.term}█`), fit(`  ${state.matches.length}/${view.items.length}${marks}`)];
  if (state.matches.length === 0) lines.push(fit('  No match: Backspace or Ctrl-U edits the query, Esc leaves.'));
  const page = state.matches.slice(state.offset, state.offset + view.pageSize);
  page.forEach((item, i) => {
    const current = state.offset + i === state.cursor;
    const marked = state.marked.includes(view.keyOf(item));
    lines.push(fit(`${current ? '❯' : ' '}${marked ? '+' : ' '}${view.line(item)}`));
  });
  return lines;
}

/** Runs the picker until Enter (the rows chosen) or a leaving key (PromptCancelledError). */
export function runPicker<T>(terminal: PromptTerminal, view: PickerView<T>): Promise<T[]> {
  const { input, output } = terminal;
  // One column spare: a line filling the last column makes some terminals wrap.
  const width = Math.max(20, terminal.columns - 1);
  let state = initialState(view);
  let drawn = 0;

  const draw = (): void => {
    const lines = frameLines(view, state, width);
    // Back to the block's first line, then everything below it replaced.
    const up = drawn > 1 ? `\u001b[${drawn - 1}A` : '';
    output.write(`${up}\r${CLEAR_DOWN}${lines.join('\n')}`);
    drawn = lines.length;
  };
  const erase = (): void => {
    const up = drawn > 1 ? `\u001b[${drawn - 1}A` : '';
    output.write(`${up}\r${CLEAR_DOWN}${SHOW_CURSOR}`);
  };

  return new Promise<T[]>((resolve, reject) => {
    const wasRaw = (input as { isRaw?: boolean }).isRaw === true;
    const finish = (outcome: () => void): void => {
      input.off('keypress', onKey);
      input.setRawMode?.(wasRaw);
      // Paused, the input no longer holds the process open.
      input.pause();
      erase();
      outcome();
    };
    const onKey = (text: string | undefined, key: Key | undefined): void => {
      const [next, result] = press(state, key ?? { sequence: text }, text, view, view.items);
      state = next;
      if (result.kind === 'cancel') return finish(() => reject(new PromptCancelledError()));
      if (result.kind === 'done') return finish(() => resolve(result.chosen));
      draw();
    };
    emitKeypressEvents(input);
    input.setRawMode?.(true);
    input.on('keypress', onKey);
    input.resume();
    output.write(HIDE_CURSOR);
    draw();
  });
}
