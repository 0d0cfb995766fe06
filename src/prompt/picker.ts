/**
 * The picker, with fzf's keys: typing filters; arrows, Ctrl-P/N and Ctrl-K/J move; Tab (Shift-Tab) marks
 * and moves where several may be chosen; Enter takes the marked rows or the current one; Esc, Ctrl-C,
 * Ctrl-G, Ctrl-Q leave; Backspace, Ctrl-U, Ctrl-W edit. The state (press) knows no terminal; runPicker draws
 * it in place, every line cut to the width, and erases it at the end, so only the answer follows.
 */
import { emitKeypressEvents } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { PromptCancelledError } from '../errors.js';
import type { Measure } from '../output/width.js';

export interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  sequence?: string;
}

export interface PickerState<T> {
  term: string;
  /** The rows matching `term`, best first. */
  matches: T[];
  cursor: number;
  /** First row shown (scrolled to keep the cursor in view). */
  offset: number;
  marked: string[];
}

export type KeyResult<T> = { kind: 'continue' } | { kind: 'done'; chosen: T[] } | { kind: 'cancel' };

export interface PickerRules<T> {
  filter(term: string): T[];
  keyOf(item: T): string;
  /** Tab marks rows: the command takes several. */
  multi: boolean;
  pageSize: number;
}

export function initialState<T>(rules: PickerRules<T>): PickerState<T> {
  return { term: '', matches: rules.filter(''), cursor: 0, offset: 0, marked: [] };
}

const LEAVE_CTRL = new Set(['c', 'g', 'q', 'd']);

function moved<T>(state: PickerState<T>, by: number, pageSize: number): PickerState<T> {
  const cursor = Math.max(0, Math.min(state.matches.length - 1, state.cursor + by));
  return { ...state, cursor, offset: Math.max(cursor - pageSize + 1, Math.min(state.offset, cursor)) };
}

function withTerm<T>(state: PickerState<T>, term: string, rules: PickerRules<T>): PickerState<T> {
  return { ...state, term, matches: rules.filter(term), cursor: 0, offset: 0 };
}

function toggled<T>(state: PickerState<T>, rules: PickerRules<T>): PickerState<T> {
  const item = state.matches[state.cursor];
  if (item === undefined) return state;
  const key = rules.keyOf(item);
  const marked = state.marked.includes(key) ? state.marked.filter((k) => k !== key) : [...state.marked, key];
  return { ...state, marked };
}

/** The rows Enter takes: the marked ones (in the order marked), else the current one. */
function chosen<T>(state: PickerState<T>, rules: PickerRules<T>, all: readonly T[]): T[] {
  if (state.marked.length > 0) {
    const byKey = new Map(all.map((item) => [rules.keyOf(item), item]));
    return state.marked.map((k) => byKey.get(k)).filter((item): item is T => item !== undefined);
  }
  const current = state.matches[state.cursor];
  return current === undefined ? [] : [current];
}

/** The state after one key, and what it asks for; `all` is every row (marked rows may be filtered out). */
export function press<T>(state: PickerState<T>, key: Key, text: string | undefined, rules: PickerRules<T>, all: readonly T[]): [PickerState<T>, KeyResult<T>] {
  const go: KeyResult<T> = { kind: 'continue' };
  const name = key.name ?? '';
  if (name === 'escape' || (key.ctrl && LEAVE_CTRL.has(name))) return [state, { kind: 'cancel' }];
  // Enter arrives as `return` (\r); Ctrl-J is a line feed, which readline names `enter`.
  if (name === 'return') {
    const picked = chosen(state, rules, all);
    return picked.length > 0 ? [state, { kind: 'done', chosen: picked }] : [state, go];
  }
  if (name === 'up' || (key.ctrl && (name === 'p' || name === 'k'))) return [moved(state, -1, rules.pageSize), go];
  if (name === 'down' || name === 'enter' || (key.ctrl && (name === 'n' || name === 'j'))) return [moved(state, 1, rules.pageSize), go];
  if (name === 'pageup') return [moved(state, -rules.pageSize, rules.pageSize), go];
  if (name === 'pagedown') return [moved(state, rules.pageSize, rules.pageSize), go];
  if (name === 'tab') {
    if (!rules.multi) return [state, go];
    return [moved(toggled(state, rules), key.shift ? -1 : 1, rules.pageSize), go];
  }
  if (name === 'backspace') return [withTerm(state, [...state.term].slice(0, -1).join(''), rules), go];
  if (key.ctrl && name === 'u') return [withTerm(state, '', rules), go];
  if (key.ctrl && name === 'w') return [withTerm(state, state.term.replace(/\S*\s*$/, ''), rules), go];
  // Printable text (a key, or a paste): added to the query; any other control key is ignored.
  if (text !== undefined && !key.ctrl && !key.meta && /^[^\u0000-\u001f\u007f-\u009f]+$/u.test(text)) return [withTerm(state, state.term + text, rules), go];
  return [state, go];
}

/** The terminal the picker draws on: the run's own streams, or /dev/tty. */
export interface PromptTerminal {
  input: Readable & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  output: Writable;
  columns: number;
  rows: number;
}

export interface PickerView<T> extends PickerRules<T> {
  message: string;
  items: readonly T[];
  /** The text of a row, at most `width` columns (label.ts). */
  line(item: T): string;
  measure: Measure;
  /** The current row's card below the list, in `previewRows` lines at `width` columns. */
  preview?(item: T, width: number): string[];
  previewRows?: number;
}

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const CLEAR_DOWN = '\u001b[J';

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
  const item = state.matches[state.cursor];
  if (!view.preview || !view.previewRows) return lines;
  // The list keeps its height, so the preview stays in place.
  while (lines.length < 3 + view.pageSize) lines.push('');
  const card = item === undefined ? [] : view.preview(item, width);
  return [...lines, '─'.repeat(width), ...card.slice(0, view.previewRows - 1).map(fit)];
}

/** Runs the picker until Enter (the rows chosen) or a leaving key (PromptCancelledError). */
export function runPicker<T>(terminal: PromptTerminal, view: PickerView<T>): Promise<T[]> {
  const { input, output } = terminal;
  // One column spare: a line filling the last column makes some terminals wrap.
  const width = Math.max(20, terminal.columns - 1);
  let state = initialState(view);
  let drawn = 0;

  // Back to the block's first line, everything below replaced.
  const redraw = (text: string): boolean => output.write(`${drawn > 1 ? `\u001b[${drawn - 1}A` : ''}\r${CLEAR_DOWN}${text}`);
  const draw = (): void => {
    const lines = frameLines(view, state, width);
    redraw(lines.join('\n'));
    drawn = lines.length;
  };

  return new Promise<T[]>((resolve, reject) => {
    const wasRaw = (input as { isRaw?: boolean }).isRaw === true;
    const finish = (outcome: () => void): void => {
      input.off('keypress', onKey);
      input.setRawMode?.(wasRaw);
      input.pause();
      redraw(SHOW_CURSOR);
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
