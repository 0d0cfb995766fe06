/** The spinner's rules: only on a terminal stderr, only past its threshold, never with -q or -v, erased at the end. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS, startSpinner } from '../../src/output/notice.js';
import { DEFAULT_GLOBALS } from '../../src/context.js';
import { MemoryOutput } from '../helpers/test-context.js';

function ctxWith(stderrIsTTY: boolean, globals: Partial<typeof DEFAULT_GLOBALS> = {}) {
  const stderr = new MemoryOutput(stderrIsTTY, 80);
  const ctx = { io: { stderr, stderrIsTTY, columns: 80 } as never, globals: { ...DEFAULT_GLOBALS, ...globals } };
  return { ctx, stderr };
}

describe('the spinner', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('shows nothing for a wait shorter than the threshold', () => {
    const { ctx, stderr } = ctxWith(true);
    const s = startSpinner(ctx, 'Fetching…');
    vi.advanceTimersByTime(SPINNER_DELAY_MS - 50);
    s.stop();
    vi.advanceTimersByTime(1000);
    expect(stderr.text()).toBe('');
  });

  it('appears past the threshold with its text and count, and is erased when stopped', () => {
    const { ctx, stderr } = ctxWith(true);
    const s = startSpinner(ctx, 'Fetching exercises…');
    vi.advanceTimersByTime(SPINNER_DELAY_MS + 10);
    expect(stderr.text()).toMatch(/⠋ Fetching exercises…$/);
    s.update('Fetching exercises… 2 pages, 50 rows');
    vi.advanceTimersByTime(150);
    expect(stderr.text()).toContain('2 pages, 50 rows');
    s.stop();
    expect(stderr.text()).toMatch(/\r {10,}\r$/);
    expect(stderr.text()).not.toContain('\u001b');
    const before = stderr.text();
    vi.advanceTimersByTime(1000);
    expect(stderr.text()).toBe(before);
  });

  it.each([
    ['a pipe', false, {}],
    ['--quiet', true, { quiet: true }],
    ['--verbose', true, { verbose: true }],
  ])('never in %s', (_what, tty, globals) => {
    const { ctx, stderr } = ctxWith(tty, globals);
    const s = startSpinner(ctx, 'Fetching…');
    vi.advanceTimersByTime(5000);
    s.stop();
    expect(stderr.text()).toBe('');
  });
});
