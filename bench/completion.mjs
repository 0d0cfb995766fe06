#!/usr/bin/env node
/**
 * Shell completion benchmark (docs/design.md "Performance budgets": a TAB within 1.3x of
 * `node -e 0`). Times what each TAB runs, `exercises __complete bash <cword> <words...>`,
 * for commands, flags, enum values, ids and media names from a large catalogue directory
 * (a mirrored catalogue's size: records with instructions and translations) and ids from a full id
 * index (at its cap). Interleaved, medians, in a minimal environment
 * (PATH, HOME and the XDG folders only).
 *
 * Usage: npm run build && node bench/completion.mjs [runs] [records] [--node <path>]   (default 30 runs, 2000 records)
 *        --node: the Node binary the measured processes run
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printVerdicts, takeNodeOption, timeNode } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'exercises.js');
const argv = process.argv.slice(2);
const { node, nodeVersion } = takeNodeOption(argv);
const runs = Number(argv[0] ?? process.env.RUNS ?? 30);
const records = Number(argv[1] ?? 2000);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(records) || records < 1) {
  console.log('Usage: npm run build && node bench/completion.mjs [runs] [records] [--node <path>]   (default 30 runs, 2000 records)');
  process.exit(argv[0] === '--help' || argv[0] === '-h' ? 0 : 2);
}
const warmups = 3;

const { appendIdIndex, ID_INDEX_MAX_LINES } = await import(join(root, 'dist', 'completion', 'id-index.js'));

const home = mkdtempSync(join(tmpdir(), 'exercises-bench-completion-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') };

/** A catalogue as `mirror` writes it: full records, several translations each. */
function writeCatalogue(dir, count) {
  mkdirSync(dir, { recursive: true });
  const steps = (n, lang) =>
    Array.from({ length: 4 }, (_, i) => `${lang}: step ${i + 1} of exercise ${n}, held with control through the whole range of motion.`);
  const lines = [];
  for (let n = 0; n < count; n++) {
    const name = `Barbell Variation ${n}`;
    lines.push(
      JSON.stringify({
        id: name.replace(/ /g, '_'),
        name,
        displayName: name,
        aliases: [`Variation ${n}`],
        category: 'STRENGTH',
        primaryMuscle: ['CHEST'],
        secondaryMuscle: ['TRICEPS', 'SHOULDERS'],
        force: 'PUSH',
        level: 'INTERMEDIATE',
        mechanic: 'COMPOUND',
        equipment: 'BARBELL',
        instructions: steps(n, 'en'),
        premiumImages: ['start', 'end'],
        premiumVideos: ['demo'],
        translations: Object.fromEntries(
          ['de-DE', 'es-ES', 'fr-FR'].map((lang) => [lang, { displayName: `${name} (${lang})`, aliases: [], instructions: steps(n, lang) }]),
        ),
      }),
    );
  }
  writeFileSync(join(dir, 'exercises.jsonl'), `${lines.join('\n')}\n`);
  return lines.join('\n').length;
}

const catalogue = join(home, 'catalogue');
const catalogueBytes = writeCatalogue(catalogue, records);
appendIdIndex(
  join(home, '.cache', 'exercises'),
  Array.from({ length: ID_INDEX_MAX_LINES }, (_, n) => ({ id: `Dumbbell_Variation_${n}`, name: `Dumbbell Variation ${n}` })),
);

const tab = (cword, ...words) => [cli, '__complete', 'bash', String(cword), 'exercises', ...words];
const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  // Reference: the launcher's own shortcut, which loads nothing either.
  { name: 'exercises --version', args: [cli, '--version'] },
  { name: 'TAB: commands', args: tab(1, ''), target: 1.3 },
  { name: 'TAB: flags of download', args: tab(2, 'download', '--'), target: 1.3 },
  { name: 'TAB: --muscle values', args: tab(3, 'query', '--muscle', 'l'), target: 1.3 },
  {
    name: `TAB: ids, catalogue ${(catalogueBytes / 1e6).toFixed(1)} MB`,
    args: tab(2, 'show', 'barbell variation 12'),
    env: { EXERCISES_CATALOGUE: catalogue },
    target: 1.3,
  },
  { name: `TAB: ids, index ${ID_INDEX_MAX_LINES} lines`, args: tab(2, 'show', 'Dumbbell_Variation_12'), target: 1.3 },
  { name: 'TAB: show <nothing typed>, index', args: tab(2, 'show', ''), target: 1.3 },
  { name: 'TAB: media names, catalogue', args: tab(3, 'image', `Barbell_Variation_${records - 1}`, ''), env: { EXERCISES_CATALOGUE: catalogue }, target: 1.3 },
  // Not a budget row: the first TAB after the catalogue changed reads it whole into completion's index of it.
  {
    name: 'first TAB on a changed catalogue',
    args: tab(2, 'show', 'Barbell_Variation_1'),
    env: () => ({ EXERCISES_CATALOGUE: catalogue, XDG_CACHE_HOME: mkdtempSync(join(home, 'fresh-cache-')) }),
  },
];

// Interleaved as bench/lib.mjs interleaved(), with each case's own environment.
const samples = cases.map(() => []);
const order = cases.map((_, j) => j);
try {
  for (let i = 0; i < warmups + runs; i++) {
    for (const j of i % 2 === 0 ? order : [...order].reverse()) {
      const own = typeof cases[j].env === 'function' ? cases[j].env() : cases[j].env;
      const { ms } = await timeNode(cases[j].args, { ...env, ...own }, { node });
      if (i >= warmups) samples[j].push(ms);
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
console.log(`shell completion, median of ${runs} runs each (interleaved), node ${nodeVersion}\n`);
const ok = printVerdicts(cases, samples, { nameWidth: 38 });
console.log(`\nnode -e 0 median ${median(samples[0]).toFixed(1)} ms; each TAB row is one \`exercises __complete\` process, as the shell runs it.`);
process.exitCode = ok ? 0 : 1;
