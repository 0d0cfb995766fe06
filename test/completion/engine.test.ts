/**
 * The parts of a TAB in-process: the words as shells hand them over, what the line means,
 * the candidates, the catalogue reader, and each shell's answer format.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { catalogueEntriesMatching, catalogueMediaNames } from '../../src/completion/catalogue-ids.js';
import { describeProgram } from '../../src/completion/describe-program.js';
import { complete, type ExerciseEntry, type LocalSources, MAX_EXERCISE_CANDIDATES, parseLine } from '../../src/completion/engine.js';
import { catalogueDirFor } from '../../src/completion/fast-path.js';
import { bashQuote, formatCompletion } from '../../src/completion/shell-output.js';
import { dequote, reassemble } from '../../src/completion/parse-line.js';
import { CONFIG_KEYS } from '../../src/config/settings.js';
import { catalogueDir } from './shell-driver.js';
import { tempDir } from '../helpers/temp.js';

const data = describeProgram(
  buildProgram({
    context: () => {
      throw new Error('not run');
    },
  }),
  CONFIG_KEYS,
);

function sources(entries: ExerciseEntry[], media: Record<string, string[]> = {}): () => LocalSources {
  return () => ({ exercises: () => entries, mediaNames: (id) => media[id] ?? [] });
}

function values(words: string[], entries: ExerciseEntry[] = []): string[] {
  const r = complete(data, words, words.length - 1, sources(entries));
  return r.directive === 'words' ? r.candidates.map((c) => c.value) : [`<${r.directive}:${r.wordPrefix}${r.prefix}>`];
}

describe('dequote', () => {
  it('removes quoting as a POSIX shell does and reports a quote left open', () => {
    expect(dequote('Barbell\\ Bench')).toEqual({ text: 'Barbell Bench', openQuote: '', openQuoteAt: -1 });
    expect(dequote('"Barbell B')).toEqual({ text: 'Barbell B', openQuote: '"', openQuoteAt: 0 });
    expect(dequote("--muscle='lower")).toEqual({ text: '--muscle=lower', openQuote: "'", openQuoteAt: 9 });
    expect(dequote('"a\\"b" \'c\\d\'').text).toBe('a"b c\\d');
  });
});

describe('reassemble', () => {
  it("glues bash's pieces around = and : back into words", () => {
    expect(reassemble(['exercises', 'query', '--muscle', '=', 'ch'], 4, true)).toEqual({
      words: ['exercises', 'query', '--muscle=ch'],
      cword: 2,
      replacedFrom: 9,
    });
    expect(reassemble(['exercises', 'query', '--muscle', '='], 3, true)).toEqual({ words: ['exercises', 'query', '--muscle='], cword: 2, replacedFrom: 9 });
    expect(reassemble(['exercises', '--base-url', 'http', ':', '//h', ':', '9', 'show', ''], 8, true).words).toEqual([
      'exercises',
      '--base-url',
      'http://h:9',
      'show',
      '',
    ]);
  });

  it('leaves zsh and fish words alone and drops words after the cursor', () => {
    expect(reassemble(['exercises', 'a', '=', 'b', 'c'], 2, false)).toEqual({ words: ['exercises', 'a', '='], cword: 2, replacedFrom: 0 });
    expect(reassemble(['exercises'], 1, false).words).toEqual(['exercises', '']);
  });
});

describe('parseLine', () => {
  it('follows flags, their values, -- and subcommands as commander parses them', () => {
    const { line, target } = parseLine(data, ['exercises', '--format', 'json', 'config', 'set', 'lang', 'de'], 6);
    expect(line.commands.map((c) => c.name)).toEqual(['exercises', 'config', 'set']);
    expect(line.positionals).toEqual(['lang']);
    expect(line.given.get('--format')).toBe('json');
    expect(target).toEqual({ type: 'command-or-arg', text: 'de' });
    expect(parseLine(data, ['exercises', 'show', '--', '-x', ''], 4).line.positionals).toEqual(['-x']);
    expect(parseLine(data, ['exercises', 'image', '-oout.png', 'Plank', ''], 4).line.positionals).toEqual(['Plank']);
    expect(parseLine(data, ['exercises', '--sandbox', 'show', ''], 3).line.given.has('--sandbox')).toBe(true);
  });
});

describe('complete', () => {
  it('offers commands, flags, values and arguments', () => {
    expect(values(['exercises', 'q'])).toEqual(['query', 'quota']);
    expect(values(['exercises', 'que'])).toEqual(['query']);
    expect(values(['exercises', 'query', '--le'])).toEqual(['--level']);
    expect(values(['exercises', 'query', '--level', 'B'])).toEqual(['beginner']);
    expect(values(['exercises', 'query', '--level=e'])).toEqual(['--level=expert']);
    expect(values(['exercises', 'query', '--muscle', 'lower_b'])).toEqual(['lower back']);
    expect(values(['exercises', 'download', '--dir', 'me'])).toEqual(['<dirs:me>']);
    expect(values(['exercises', 'download', '--dir=me'])).toEqual(['<dirs:--dir=me>']);
    expect(values(['exercises', 'video', 'Plank', '-o', ''])).toEqual(['<files:>']);
    expect(values(['exercises', 'ids', '--limit', ''])).toEqual([]);
    expect(values(['exercises', 'ids', ''])).toEqual([]); // no argument, no subcommand
  });

  it('finds exercises by id as typed or by name in any case, and completes the id, once each, the name as its description', () => {
    const entries = [{ id: 'Plank', name: 'Plank' }, { id: 'Side_Plank', name: 'Side Plank' }, { id: 'plank_jack' }];
    expect(values(['exercises', 'show', 'Pl'], entries)).toEqual(['Plank']);
    expect(values(['exercises', 'show', 'pl'], entries)).toEqual(['Plank', 'plank_jack']);
    expect(values(['exercises', 'show', 'side p'], entries)).toEqual(['Side_Plank']);
    const described = complete(data, ['exercises', 'show', 'Side'], 2, sources(entries));
    expect(described).toEqual({ directive: 'words', candidates: [{ value: 'Side_Plank', description: 'Side Plank' }] });
  });

  it('offers at most MAX_EXERCISE_CANDIDATES, then what was typed, so no shell inserts more than all share', () => {
    const many = Array.from({ length: MAX_EXERCISE_CANDIDATES * 2 }, (_, n) => ({ id: `Ex_${n < MAX_EXERCISE_CANDIDATES ? 'a' : 'b'}${n}` }));
    let limit = 0;
    const limited = (): LocalSources => ({
      exercises: (_prefix, l) => {
        limit = l;
        return many;
      },
      mediaNames: () => [],
    });
    const r = complete(data, ['exercises', 'show', 'Ex_'], 2, limited);
    expect(limit).toBe(MAX_EXERCISE_CANDIDATES + 1);
    const got = r.directive === 'words' ? r.candidates.map((c) => c.value) : [];
    expect(got).toHaveLength(MAX_EXERCISE_CANDIDATES + 1);
    expect(got.at(-1)).toBe('Ex_');
    expect(got.slice(0, -1).every((v) => v.startsWith('Ex_a'))).toBe(true);
    expect(values(['exercises', 'show', 'Ex_b'], many)).toHaveLength(MAX_EXERCISE_CANDIDATES);
  });

  it('looks exercises up only when an id or name is wanted', () => {
    let asked = 0;
    const counting = (): LocalSources => ({
      exercises: () => {
        asked++;
        return [];
      },
      mediaNames: () => [],
    });
    for (const words of [
      ['exercises', ''],
      ['exercises', 'show', '--'],
      ['exercises', 'query', '--muscle', ''],
    ])
      complete(data, words, words.length - 1, counting);
    expect(asked).toBe(0);
    complete(data, ['exercises', 'show', ''], 2, counting);
    expect(asked).toBe(1);
  });
});

describe('shell answers', () => {
  const words = { directive: 'words' as const, candidates: [{ value: 'lower back', description: 'a: muscle' }, { value: 'lats' }] };

  it('gives bash quoted text for the part readline replaces', () => {
    expect(formatCompletion('bash', words, { raw: 'l', replacedFrom: 0 })).toBe('words\nlower\\ back\nlats\n');
    expect(formatCompletion('bash', words, { raw: '"l', replacedFrom: 0 })).toBe('words\nlower back\nlats\n');
    const eq = { directive: 'words' as const, candidates: [{ value: '--muscle=lower back' }] };
    expect(formatCompletion('bash', eq, { raw: '--muscle=lo', replacedFrom: 9 })).toBe('words\nlower\\ back\n');
    expect(formatCompletion('bash', { directive: 'dirs', prefix: 'me', wordPrefix: '--dir=' }, { raw: '--dir=me', replacedFrom: 6 })).toBe('dirs\tme\n');
  });

  it('gives zsh value:description and fish value<TAB>description', () => {
    expect(formatCompletion('zsh', words, { raw: '', replacedFrom: 0 })).toBe('words\nlower back:a: muscle\nlats\n');
    expect(formatCompletion('zsh', { directive: 'words', candidates: [{ value: 'a:b' }] }, { raw: '', replacedFrom: 0 })).toBe('words\na\\:b\n');
    expect(formatCompletion('fish', words, { raw: '', replacedFrom: 0 })).toBe('words\nlower back\ta: muscle\nlats\n');
    expect(formatCompletion('fish', { directive: 'files', prefix: 'o', wordPrefix: '--out=' }, { raw: '', replacedFrom: 0 })).toBe('files\to\t--out=\n');
  });

  it('quotes for bash whatever a name may hold', () => {
    expect(bashQuote("Farmer's Walk (heavy) & $5", '')).toBe("Farmer\\'s\\ Walk\\ \\(heavy\\)\\ \\&\\ \\$5");
    expect(bashQuote('say "hi" $x', '"')).toBe('say \\"hi\\" \\$x');
    expect(bashQuote("it's", "'")).toBe("it'\\''s");
    expect(bashQuote('~home', '')).toBe('\\~home');
    expect(bashQuote('Übung-1,2', '')).toBe('Übung-1,2');
  });
});

describe('catalogue reader', () => {
  const records = [
    { id: 'A_1', name: 'Quoted "One"', translations: { 'de-DE': { displayName: 'x "id":"fake"' } }, premiumImages: ['start'] },
    { name: 'Second', id: 'B\\2', premiumVideos: ['demo', 'slow'] },
    { id: 'Übung', name: 'Übung für alle', premiumImages: ['a\tb', 'ok'] },
  ];

  function readEverything(dir: string, cache: string): void {
    expect(catalogueEntriesMatching(dir, '', cache)).toEqual([
      { id: 'A_1', name: 'Quoted "One"' },
      { id: 'B\\2', name: 'Second' },
      { id: 'Übung', name: 'Übung für alle' },
    ]);
    expect(catalogueEntriesMatching(dir, 'sec', cache)).toContainEqual({ id: 'B\\2', name: 'Second' });
    expect(catalogueEntriesMatching(dir, 'übung f', cache)).toContainEqual({ id: 'Übung', name: 'Übung für alle' });
    expect(catalogueMediaNames(dir, 'A_1', 'image', cache)).toEqual(['start']);
    expect(catalogueMediaNames(dir, 'second', 'video', cache)).toEqual(['demo', 'slow']);
    expect(catalogueMediaNames(dir, 'Übung', 'image', cache)).toEqual(['ok']);
    expect(catalogueMediaNames(dir, 'A_1', 'video', cache)).toEqual([]);
    expect(catalogueMediaNames(dir, 'fake', 'image', cache)).toEqual([]);
  }

  it('reads ids, names and media names, skipping lines that are not records', () => {
    const dir = catalogueDir(records);
    writeFileSync(join(dir, 'exercises.jsonl'), `${'\n'}not json\n{"name":"no id"}\n`, { flag: 'a' });
    readEverything(dir, tempDir('exercises-cache-'));
    // A cache folder that cannot be made: the catalogue itself is read, with the same answers.
    const blocker = join(tempDir('exercises-cache-'), 'file');
    writeFileSync(blocker, '');
    readEverything(dir, blocker);
    expect(catalogueEntriesMatching(join(dir, 'missing'), 'A', blocker)).toEqual([]);
    expect(catalogueMediaNames(join(dir, 'missing'), 'A_1', 'image', blocker)).toEqual([]);
  });

  it('keeps indexes per catalogue version in the cache', () => {
    const dir = catalogueDir([{ id: 'Plank', name: 'Plank' }]);
    const cache = tempDir('exercises-cache-');
    expect(catalogueEntriesMatching(dir, 'Pl', cache)).toEqual([{ id: 'Plank', name: 'Plank' }]);
    const indexes = readdirSync(join(cache, 'completion-catalogues'));
    expect(indexes).toHaveLength(1);
    // A changed catalogue gets new indexes, and the old ones go.
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify({ id: 'Plank_Jack', name: 'Plank Jack', premiumVideos: ['demo'] })}\n`, { flag: 'a' });
    expect(catalogueEntriesMatching(dir, 'plank j', cache)).toEqual([{ id: 'Plank_Jack', name: 'Plank Jack' }]);
    expect(catalogueMediaNames(dir, 'Plank Jack', 'video', cache)).toEqual(['demo']);
    const after = readdirSync(join(cache, 'completion-catalogues'));
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(indexes);
  });

  it('is chosen by --sandbox, then --catalogue, then EXERCISES_CATALOGUE', () => {
    const line = (given: Record<string, string>) => ({ commands: [], positionals: [], given: new Map(Object.entries(given)) });
    expect(catalogueDirFor(line({ '--sandbox': '' }), { EXERCISES_CATALOGUE: '/env' }, '/sample')).toBe('/sample');
    expect(catalogueDirFor(line({ '--catalogue': '/flag' }), { EXERCISES_CATALOGUE: '/env' }, '/sample')).toBe('/flag');
    expect(catalogueDirFor(line({}), { EXERCISES_CATALOGUE: '/env' }, '/sample')).toBe('/env');
    // As a run has it (config/settings.ts catalogueInForce): --base-url says the answers come from elsewhere.
    expect(catalogueDirFor(line({ '--base-url': 'http://127.0.0.1:1' }), { EXERCISES_CATALOGUE: '/env' }, '/sample')).toBeUndefined();
  });
});
