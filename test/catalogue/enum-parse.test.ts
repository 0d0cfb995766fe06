import { describe, expect, it } from 'vitest';
import { parseEnumList, parseEnumValue } from '../../src/catalogue/enum-parse.js';
import { ENUMS } from '../../src/catalogue/enums.js';
import { UsageError } from '../../src/errors.js';

describe('parseEnumValue', () => {
  it('accepts any case, spaces and hyphens', () => {
    expect(parseEnumValue('Muscle', 'chest')).toBe('CHEST');
    expect(parseEnumValue('Muscle', 'lower back')).toBe('LOWER_BACK');
    expect(parseEnumValue('Muscle', 'Middle-Back')).toBe('MIDDLE_BACK');
    expect(parseEnumValue('Category', 'olympic weightlifting')).toBe('OLYMPIC_WEIGHTLIFTING');
  });

  it('reads the friendly spellings of E_Z_CURL_BAR', () => {
    expect(parseEnumValue('Equipment', 'ez curl bar')).toBe('E_Z_CURL_BAR');
    expect(parseEnumValue('Equipment', 'E-Z curl bar')).toBe('E_Z_CURL_BAR');
    expect(parseEnumValue('Equipment', 'e.z. curl bar')).toBe('E_Z_CURL_BAR');
  });

  it('round-trips every value of every enum', () => {
    for (const [name, values] of Object.entries(ENUMS)) {
      for (const v of values) {
        expect(parseEnumValue(name as keyof typeof ENUMS, v.toLowerCase().replace(/_/g, ' '))).toBe(v);
      }
    }
  });

  it('rejects an unknown value, naming the valid ones and the closest', () => {
    try {
      parseEnumValue('Muscle', 'chestt', '--muscle');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      const e = err as UsageError;
      expect(e.exitCode).toBe(2);
      expect(e.message).toContain('--muscle');
      expect(e.message).toContain('Did you mean chest?');
      expect(e.hint).toContain('lower back, middle back');
    }
  });

  it('does not suggest a far-off value', () => {
    expect(() => parseEnumValue('Force', 'sideways')).toThrow(/Unknown Force value "sideways"\.$/);
  });
});

describe('parseEnumList', () => {
  it('splits comma lists, merges repeats and drops duplicates in order', () => {
    expect(parseEnumList('Category', ['strength,cardio', 'plyometrics', 'Cardio'])).toEqual(['STRENGTH', 'CARDIO', 'PLYOMETRICS']);
  });
});
