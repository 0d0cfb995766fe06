/** How a command line's leading words are read past the global flags (src/config/parsers.ts). */
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAGS } from '../../src/config/settings.js';
import { flagArities, leadingWords } from '../../src/config/parsers.js';

const ARITIES = flagArities(GLOBAL_FLAGS.map((f) => f.flag));

describe('flagArities', () => {
  it('gives every spelling its arity', () => {
    expect(flagArities(['-v, --verbose', '--lang <code>', '--json [fields]', '--no-color'])).toEqual({
      '-v': 'none',
      '--verbose': 'none',
      '--lang': 'required',
      '--json': 'optional',
      '--no-color': 'none',
    });
  });
});

describe('leadingWords', () => {
  it('skips global flags and the values they require, and lists the flags met', () => {
    expect(leadingWords(['--lang', 'de-DE', '-q', '--catalogue', 'show', 'show', 'Plank'], ARITIES)).toEqual({
      words: ['show', 'Plank'],
      flags: ['--lang', '-q', '--catalogue'],
    });
  });

  it('takes a value attached with = as part of its flag', () => {
    expect(leadingWords(['--format=json', '--json=id,name', 'ids'], ARITIES)).toEqual({ words: ['ids'], flags: ['--format', '--json'] });
  });

  it('stops at a flag whose optional value is not attached, and at a flag that is not global', () => {
    expect(leadingWords(['--json', 'show', 'Plank'], ARITIES).words).toEqual([]);
    expect(leadingWords(['query', '--muscle', 'CHEST'], ARITIES).words).toEqual(['query']);
    expect(leadingWords(['--muscle', 'CHEST', 'query'], ARITIES)).toEqual({ words: [], flags: [] });
  });

  it('reads a lone dash as a word (stdin), and a flag named like an Object property as unknown', () => {
    expect(leadingWords(['show', '-'], ARITIES).words).toEqual(['show', '-']);
    expect(leadingWords(['--constructor', 'show'], ARITIES).words).toEqual([]);
  });
});
