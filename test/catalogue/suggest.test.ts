/** Suggestions: the synonyms table of the enums, the fuzzy matcher, near-miss ids, durations. */
import { describe, expect, it } from 'vitest';
import { enumMeaning, enumSuggestions, parseEnumValue } from '../../src/catalogue/enum-parse.js';
import { enumSynonyms, friendlyEnumValue } from '../../src/catalogue/enum-words.js';
import { ENUMS, type EnumName } from '../../src/catalogue/enums.js';
import { closest, closestWords, editDistance, looseForm } from '../../src/catalogue/suggest.js';
import { formatDuration, parseDuration } from '../../src/config/parsers.js';
import { UsageError } from '../../src/errors.js';
import { runInProcess } from '../helpers/test-context.js';

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a usage error');
}

describe('the words people use for enum values', () => {
  it.each([
    ['Muscle', 'abs', 'ABDOMINALS'],
    ['Muscle', 'Abs', 'ABDOMINALS'],
    ['Muscle', 'shoulder', 'SHOULDERS'],
    ['Muscle', 'delts', 'SHOULDERS'],
    ['Muscle', 'bicep', 'BICEPS'],
    ['Muscle', 'tricep', 'TRICEPS'],
    ['Muscle', 'quads', 'QUADRICEPS'],
    ['Muscle', 'calf', 'CALVES'],
    ['Muscle', 'lat', 'LATS'],
    ['Muscle', 'pecs', 'CHEST'],
    ['Muscle', 'glute', 'GLUTES'],
    ['Equipment', 'ez bar', 'E_Z_CURL_BAR'],
    ['Equipment', 'EZ-bar', 'E_Z_CURL_BAR'],
    ['Equipment', 'kettlebell', 'KETTLEBELLS'],
    ['Equipment', 'dumbbells', 'DUMBBELL'],
    ['Equipment', 'bodyweight', 'BODY_ONLY'],
    ['Equipment', 'band', 'BANDS'],
    ['Equipment', 'swiss ball', 'EXERCISE_BALL'],
    ['Level', 'advanced', 'EXPERT'],
    ['Category', 'stretch', 'STRETCHING'],
  ] as const)('%s %j → %s', (name, input, value) => {
    expect(parseEnumValue(name, input)).toBe(value);
  });

  it('back names three muscles: the error offers them, never NECK', () => {
    const e = usageError(() => parseEnumValue('Muscle', 'back', '--muscle'));
    expect(e.message).toBe('The --muscle value "back" could mean lower back, middle back or lats; give one of them.');
    expect(e.message).not.toContain('NECK');
    expect(e.exitCode).toBe(2);
  });

  it('a typo of a synonym suggests its value: abbs → ABDOMINALS, shoulderz → SHOULDERS, not LATS', () => {
    expect(usageError(() => parseEnumValue('Muscle', 'abbs')).message).toContain('Did you mean abdominals?');
    expect(enumSuggestions('Muscle', 'shouldr')).toEqual(['SHOULDERS']);
    expect(enumSuggestions('Muscle', 'bicpes')[0]).toBe('BICEPS');
    expect(enumSuggestions('Equipment', 'ez barr')[0]).toBe('E_Z_CURL_BAR');
    expect(enumSuggestions('Muscle', 'abs')).not.toContain('LATS');
  });

  it('far-off words get no suggestion', () => {
    expect(enumSuggestions('Muscle', 'elbow')).toEqual([]);
    expect(usageError(() => parseEnumValue('Force', 'sideways')).message).toBe('Unknown Force value "sideways".');
  });

  it('every synonym names real values of its enum, and no synonym shadows a value', () => {
    for (const name of Object.keys(ENUMS) as EnumName[]) {
      const values = ENUMS[name] as readonly string[];
      for (const [word, meant] of Object.entries(enumSynonyms(name))) {
        expect(word).toMatch(/^[A-Z0-9]+$/);
        for (const v of meant) expect(values).toContain(v);
        expect(enumMeaning(name, word)).toEqual(meant);
      }
    }
  });
});

describe('the fuzzy matcher', () => {
  it('treats case, separators and punctuation as the same word', () => {
    expect(looseForm('Push-Up')).toBe(looseForm('push_up'));
    expect(looseForm('push up')).toBe('pushup');
  });

  it('finds near-miss ids and names: same loose form first, then one edit', () => {
    const known = [
      { id: 'Push_Up', name: 'Push-Up' },
      { id: 'Pull_Up', name: 'Pull-Up' },
      { id: 'Barbell_Bench_Press', name: 'Barbell Bench Press' },
    ];
    const ids = (typed: string) => closest(typed, known, (e) => e.id).map((e) => e.id);
    expect(ids('push_up')[0]).toBe('Push_Up');
    expect(ids('Push_Upp')[0]).toBe('Push_Up');
    expect(ids('barbell bench pres')).toEqual(['Barbell_Bench_Press']);
    expect(ids('squat')).toEqual([]);
  });

  it('suggests commands and topics by prefix or one edit', () => {
    expect(closestWords('quer', ['query', 'quota'])).toEqual(['query']);
    expect(closestWords('enviroment', ['environment', 'exit-codes'])).toEqual(['environment']);
    expect(closestWords('langg', ['lang', 'base-url', 'timeout'])).toEqual(['lang']);
    expect(closestWords('zzz', ['lang'])).toEqual([]);
  });
});

describe('durations', () => {
  it('are read the same way for every duration setting', () => {
    expect(parseDuration('5s', 'timeout', 'ms', { min: 1, max: 3_600_000 })).toBe(5000);
    expect(parseDuration('500ms', 'timeout', 'ms', { min: 1, max: 3_600_000 })).toBe(500);
    expect(parseDuration('30000', 'timeout', 'ms', { min: 1, max: 3_600_000 })).toBe(30000);
    expect(parseDuration('90m', 'cache-ttl', 's', { min: 0, max: 8_640_000_000 })).toBe(5_400_000);
    expect(parseDuration('24h', 'cache-ttl', 's', { min: 0, max: 8_640_000_000 })).toBe(86_400_000);
    expect(() => parseDuration('2h', 'timeout', 'ms', { min: 1, max: 3_600_000 })).toThrow(/timeout must be a duration.*between 1ms and 1h/);
    expect(() => parseDuration('500ms', 'cache-ttl', 's', { min: 0, max: 100_000 })).toThrow(UsageError); // not a whole second
    expect(() => parseDuration('soon', 'timeout', 'ms', { min: 1, max: 10 })).toThrow(UsageError);
  });

  it('are shown in the largest unit that divides them', () => {
    expect(formatDuration(86_400_000)).toBe('24h');
    expect(formatDuration(7 * 86_400_000)).toBe('7d');
    expect(formatDuration(30000)).toBe('30s');
    expect(formatDuration(1500)).toBe('1500ms');
  });
});

describe('near-miss ids on the command line', () => {
  it('show suggests a near id from the catalogue in use, with no request (an id in another case is simply found)', async () => {
    const r = await runInProcess(['--sandbox', 'show', 'Push_Upp']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Did you mean Push_Up\? \(known on this machine\)/);
    expect(r.stderr).not.toContain('Pull_Up');
    const typo = await runInProcess(['--sandbox', 'show', 'Push_Upp', 'Plank']);
    expect(typo.code).toBe(4);
    expect(typo.stderr).toContain('Not found: Push_Upp (did you mean Push_Up?)');
    expect(typo.stderr).toContain('1 of 2 exercises was not found');
  });
});

describe('query with a word instead of a flag', () => {
  it('query chest suggests --name and --muscle, exit 2, no request', async () => {
    const { runInProcess } = await import('../helpers/test-context.js');
    const r = await runInProcess(['query', 'chest']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`exercises query --name chest`');
    expect(r.stderr).toContain('`exercises query --muscle chest`');
    const abs = await runInProcess(['query', 'abs']);
    expect(abs.stderr).toContain('--muscle abdominals');
  });

  it('a --name with a space that matches nothing says what to try, on a terminal', async () => {
    const { runInProcess } = await import('../helpers/test-context.js');
    const r = await runInProcess(['--sandbox', 'query', '--name', 'push up'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('try --name "push-up"');
    // Wrapped at the terminal's width (80 here), at spaces.
    for (const line of r.stderr.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.stderr.trimEnd().split('\n').length).toBeGreaterThan(1);
  });
});

describe('transpositions and near misses', () => {
  it('counts two neighbouring letters swapped as one edit, and the rest as Levenshtein does', () => {
    expect(editDistance('chets', 'chest')).toBe(1);
    expect(editDistance('strenght', 'strength')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it.each([
    ['Muscle', 'chets', 'CHEST'],
    ['Muscle', 'bicpes', 'BICEPS'],
    ['Muscle', 'hamstirngs', 'HAMSTRINGS'],
    ['Level', 'beginer', 'BEGINNER'],
    ['Level', 'itnermediate', 'INTERMEDIATE'],
    ['Category', 'strenght', 'STRENGTH'],
    ['Equipment', 'dumbel', 'DUMBBELL'],
    ['Equipment', 'kettelbells', 'KETTLEBELLS'],
    ['Force', 'pusj', 'PUSH'],
    ['Mechanic', 'compuond', 'COMPOUND'],
  ] as const)('%s %j is refused with %s offered first', (name, input, value) => {
    const e = usageError(() => parseEnumValue(name, input, '--x'));
    // Said as people type it; the JSON details keep the service's spelling.
    expect(e.message).toContain(`Did you mean ${friendlyEnumValue(value)}`);
    expect((e.details as { suggestion?: string }).suggestion).toBe(value);
  });

  it('still offers nothing for a word far from every value', () => {
    const e = usageError(() => parseEnumValue('Muscle', 'elbow', '--muscle'));
    expect(e.message).toBe('Unknown --muscle value "elbow".');
  });

  it('`query --muscle chets` says so on the command line, exit 2', async () => {
    const r = await runInProcess(['--sandbox', 'query', '--muscle', 'chets']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown --muscle value "chets". Did you mean chest?');
  });
});
