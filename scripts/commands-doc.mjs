#!/usr/bin/env node
/**
 * Writes the tables of docs/commands.md from the real command tree, as scripts/man.mjs writes
 * the man pages (after tsc, `npm run build`): each command's flags (buildProgram:
 * every command), the global options and the config keys (the settings table,
 * src/config/settings-table.ts), the defaults, the environment variables and the exit codes.
 * The prose around them is written by hand; each table sits between two markers:
 *
 *   <!-- generated: flags show -->            (or: global-options, config-keys, defaults, environment, exit-codes)
 *   …replaced on every build…
 *   <!-- end generated -->
 *
 * test/docs/commands-doc.test.ts runs `--check`, so the committed page cannot drift from the code.
 *
 * Usage: node scripts/commands-doc.mjs [--check]   (--check: exit 1, naming the tables, if the page is not what the build writes)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const page = join(root, 'docs', 'commands.md');

const { buildProgram } = await import(`${root}dist/cli.js`);
const { EXIT_CODE_TABLE } = await import(`${root}dist/errors.js`);
const { changedBy, defaultsTable, environmentVariables } = await import(`${root}dist/config/settings-docs.js`);
const { CONFIG_KEYS, defaultText } = await import(`${root}dist/config/settings.js`);

const program = buildProgram({
  context() {
    throw new Error('The program is only described here, never run.');
  },
});
const help = program.createHelp();

/** A table cell: one line, pipes escaped. */
const cell = (text) =>
  String(text)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');
const code = (text) => `\`${text}\``;

function table(head, rows, align) {
  return [`| ${head.join(' | ')} |`, `|${(align ?? head.map(() => '---')).join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** The options a command shows in its help (--help left out), as `term` and description. */
function flagRows(cmd) {
  return help
    .visibleOptions(cmd)
    .filter((o) => o.long !== '--help')
    .map((o) => [code(help.optionTerm(o)), help.optionDescription(o)]);
}

function commandAt(words) {
  let cmd = program;
  for (const word of words) {
    cmd = cmd.commands.find((c) => c.name() === word);
    if (!cmd) throw new Error(`docs/commands.md names a table of \`exercises ${words.join(' ')}\`, which is no command.`);
  }
  return cmd;
}

const flagName = (spelling) => /--[a-z-]+/.exec(spelling)[0];

const TABLES = {
  flags: (words) => table(['Flag', 'Meaning'], flagRows(commandAt(words))),
  'global-options': () =>
    table(
      ['Option', 'Meaning'],
      program.options.filter((o) => !o.hidden && o.long !== '--help').map((o) => [code(help.optionTerm(o)), help.optionDescription(o)]),
    ),
  'config-keys': () =>
    table(
      ['Key', 'Meaning', 'Default', 'Overridden by'],
      CONFIG_KEYS.map((k) => [
        code(k.name),
        k.setWith ? `${k.description}; set only with \`${k.setWith}\`, shown masked` : k.description,
        defaultText(k) ?? 'none',
        [k.variable, k.flag ? flagName(k.flag) : undefined].filter(Boolean).map(code).join(', '),
      ]),
    ),
  defaults: () =>
    table(
      ['Default', 'Value', 'Changed by'],
      defaultsTable().map((r) => [r.name, r.value, changedBy(r).map(code).join(', ')]),
    ),
  environment: () =>
    table(
      ['Variable', 'Meaning'],
      environmentVariables().map((v) => [code(v.name), v.meaning]),
    ),
  'exit-codes': () =>
    table(
      ['Code', 'Meaning'],
      EXIT_CODE_TABLE.map((e) => [String(e.code), e.meaning]),
      ['---:', '---'],
    ),
};

const BLOCK = /(<!-- generated: ([a-z-]+)((?: [a-z-]+)*) -->\n)[\s\S]*?(<!-- end generated -->)/g;

/** The page with every generated table written anew. */
function render(markdown) {
  return markdown.replace(BLOCK, (_whole, open, name, args, close) => {
    const make = TABLES[name];
    if (!make) throw new Error(`docs/commands.md asks for a table "${name}"; known: ${Object.keys(TABLES).join(', ')}.`);
    return `${open}${make(args.trim().split(' ').filter(Boolean))}\n${close}`;
  });
}

const before = readFileSync(page, 'utf8');
const after = render(before);
if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error('docs/commands.md is not what the command tree gives: run `npm run build` and commit the page.');
    process.exitCode = 1;
  }
} else if (after !== before) {
  writeFileSync(page, after);
}
