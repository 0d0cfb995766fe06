/** The note that an answer came in another language than the one asked for. */
import { describe, expect, it } from 'vitest';
import { answersInLanguage, languageNote, languageNoter } from '../../src/output/notice.js';
import { terminalContext } from '../helpers/test-context.js';

describe('answersInLanguage', () => {
  it('compares primary languages, any case, any region, any tag of a list', () => {
    expect(answersInLanguage('en', 'en-GB')).toBe(true);
    expect(answersInLanguage('EN-us', 'en-GB')).toBe(true);
    expect(answersInLanguage('de', 'en-GB, de-DE')).toBe(true);
    expect(answersInLanguage('fr-FR', 'en-GB')).toBe(false);
    expect(answersInLanguage('de-DE', 'en')).toBe(false);
  });
});

describe('languageNoter', () => {
  it('writes one line at the end of the run, once, naming both languages', async () => {
    const t = terminalContext({ columns: 80 });
    const note = languageNoter(t.ctx);
    note('fr-FR', 'en-GB');
    note('fr-FR', 'en-GB');
    note('fr-FR', 'fr-FR');
    expect(t.stderr.text()).toBe(''); // not while the command still writes
    await t.ctx.close();
    expect(t.stderr.text()).toBe(`${languageNote('fr-FR', 'en-GB')}\n`);
    expect(t.stderr.text().length).toBeLessThanOrEqual(81);
    expect(t.stdout.text()).toBe('');
  });

  it('says nothing when every answer was in the language, or with --quiet', async () => {
    const same = terminalContext();
    languageNoter(same.ctx)('en', 'en-GB');
    await same.ctx.close();
    expect(same.stderr.text()).toBe('');
    const quiet = terminalContext({ globals: { quiet: true } });
    languageNoter(quiet.ctx)('fr-FR', 'en-GB');
    await quiet.ctx.close();
    expect(quiet.stderr.text()).toBe('');
  });
});
