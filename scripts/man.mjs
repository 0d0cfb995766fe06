#!/usr/bin/env node
/**
 * Writes the man pages, after tsc (`npm run build`): exercises(1) and one page per command and
 * subcommand (exercises-query(1), exercises-auth-login(1)…) into man/, from the real command
 * tree (buildProgram), each command's examples
 * (addExamples), the exit-code table (src/errors.ts) and the environment table
 * (src/config/settings-docs.ts). Nothing here is written by hand twice: a new flag, command,
 * exit code or variable is in the pages after the next build. package.json's "man" lists the
 * pages, so `npm install -g` installs them; the test in test/docs/man.test.ts keeps that list,
 * and each page's sections, in step.
 *
 * Usage: node scripts/man.mjs [outDir]   (default: man/ at the project root)
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.argv[2] ?? join(root, 'man');

const { buildProgram } = await import(`${root}dist/cli.js`);
const { examplesOf, notesOf } = await import(`${root}dist/commands/shared/help.js`);
const { changedBy, defaultsTable, environmentVariables } = await import(`${root}dist/config/settings-docs.js`);
const { EXIT_CODE_TABLE } = await import(`${root}dist/errors.js`);
const { httpCacheDir, ledgerPath } = await import(`${root}dist/cache/store-files.js`);
const { ID_INDEX_FILE } = await import(`${root}dist/completion/id-index.js`);
const { version } = (await import(`${root}package.json`, { with: { type: 'json' } })).default;

/**
 * Text as roff reads it: backslashes and hyphens escaped (so flags copy as typed), anything
 * beyond ASCII as a named Unicode escape (groff reads the page as Latin-1 otherwise), and a
 * line starting with a control character guarded.
 */
function roff(text) {
  return String(text)
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`)
    .replace(/^([.'])/gm, '\\&$1');
}

const program = buildProgram({
  context() {
    throw new Error('The program is only described here, never run.');
  },
});
const help = program.createHelp();

/** Every command under `cmd`, depth first, with its words after `exercises`. */
function allCommands(cmd, path = []) {
  return cmd.commands.flatMap((sub) => [{ path: [...path, sub.name()], cmd: sub }, ...allCommands(sub, [...path, sub.name()])]);
}

const pageName = (path) => ['exercises', ...path].join('-');

function section(title, body) {
  return body ? `.SH ${title}\n${body}` : '';
}

/** Tagged paragraphs: a bold term, its text indented under it. */
function tagged(items) {
  return items.map(([term, text]) => `.TP\n\\fB${roff(term)}\\fR\n${roff(text)}\n`).join('');
}

function optionItems(options) {
  return options.map((option) => [help.optionTerm(option), help.optionDescription(option)]);
}

function examples(cmd) {
  const found = examplesOf(cmd);
  if (!found) return '';
  const block = (title, lines) => (lines.length ? `.PP\n${roff(title)}\n.PP\n.RS 4\n.nf\n${lines.map((l) => `$ ${roff(l)}`).join('\n')}\n.fi\n.RE\n` : '');
  return block('At a terminal:', found.terminal) + block('In pipelines:', found.pipelines);
}

/** The sections a command's help adds (addNotes: the config keys, …), as subsections of DESCRIPTION. */
function notes(cmd) {
  return notesOf(cmd)
    .map(
      (note) =>
        `.SS ${roff(note.title[0] + note.title.slice(1).toLowerCase())}\n${'text' in note ? `${roff(note.text.replace(/\s*\n\s*/g, ' '))}\n` : tagged(note.items.map((i) => [i.term, i.description]))}`,
    )
    .join('');
}

/** Every default and what changes it (src/config/settings-docs.ts, as `exercises help defaults` prints it). */
const defaults = tagged(defaultsTable().map((r) => [r.name, changedBy(r).length > 0 ? `${r.value} (${changedBy(r).join(', ')})` : r.value]));

const exitStatus = tagged(EXIT_CODE_TABLE.map(({ code, meaning }) => [String(code), meaning]));
const environment = tagged(environmentVariables().map(({ name, meaning }) => [name, meaning]));

const CACHE = '$XDG_CACHE_HOME/exercises';
const files = tagged([
  ['$XDG_CONFIG_HOME/exercises/config.json', 'the stored API key and settings (default ~/.config/exercises/config.json), mode 0600; see exercises-config(1)'],
  [`${httpCacheDir(CACHE)}/`, 'the response cache of JSON answers (default ~/.cache/exercises/http/); see exercises-cache(1)'],
  [ledgerPath(CACHE), 'the count of requests sent this month, per service and key; see exercises-quota(1)'],
  [`${CACHE}/${ID_INDEX_FILE}`, 'the exercise ids seen, for shell completion; see exercises-completion(1)'],
  [`${CACHE}/compile-cache/`, "Node's compile cache, kept by the launcher to start faster (Node 22.1 and later); safe to delete"],
]);

function seeAlso(path, cmd) {
  const related = new Set();
  if (path.length > 0) related.add(pageName(path.slice(0, -1)));
  for (const sub of cmd.commands) related.add(pageName([...path, sub.name()]));
  if (path.length === 0) for (const { path: p } of allCommands(program)) related.add(pageName(p));
  const refs = [...related].map((name) => `.BR ${roff(name)} (1)`).join(',\n');
  const docs =
    'The documentation under docs/ in the package (commands.md, media.md, requests-and-cache.md, catalogue-and-serve.md) and `exercises help environment`, `exercises help exit-codes`.';
  return `${refs}${refs ? '\n' : ''}.PP\n${roff(docs)}\n`;
}

function page(path, cmd) {
  const name = pageName(path);
  const usage = help.commandUsage(cmd);
  const subcommands = tagged(
    cmd.commands.map((sub) => [`${sub.name()} ${sub.usage()}`.trim(), `${sub.description()} (see ${pageName([...path, sub.name()])}(1))`]),
  );
  const args = tagged(help.visibleArguments(cmd).map((a) => [help.argumentTerm(a), help.argumentDescription(a)]));
  const own = optionItems(help.visibleOptions(cmd).filter((o) => o.long !== '--help'));
  // The global options come from the program itself: the help layout may not list them in a
  // section of its own (gh's INHERITED FLAGS is drawn by the help formatter, not by commander).
  const inherited = path.length ? optionItems(program.options.filter((o) => !o.hidden && o.long !== '--help')) : [];
  const description = [
    `${roff(cmd.description())}\n`,
    path.length === 0
      ? `.PP\n${roff('A client for the exercise catalogue service, for three kinds of use: at a terminal (readable tables and cards), in shell pipelines (tsv, json, jsonl or csv on stdout; everything else on stderr; exit codes that say what happened), and in bulk media scripts (every premium image and video of a filtered set, verified and resumable). --sandbox runs any command against the built-in sample catalogue with no key and no network.')}\n.PP\n${roff('Global options are given before or after the command name. A flag beats an environment variable, which beats the stored config, which beats the default.')}\n`
      : '',
    args ? `.SS Arguments\n${args}` : '',
    subcommands ? `.SS Commands\n${subcommands}` : '',
    notes(cmd),
    path.length === 0 ? `.SS Defaults\n${roff('A flag beats an environment variable, which beats the stored config, which beats these:')}\n${defaults}` : '',
  ].join('');
  const options = [
    own.length ? tagged(own) : `${roff('No options of its own.')}\n`,
    inherited.length ? `.SS Inherited options\n${roff('The global options of exercises(1):')}\n${tagged(inherited)}` : '',
  ].join('');
  return [
    `.\\" Generated by scripts/man.mjs from the command tree; do not edit.\n`,
    `.TH "${roff(name.toUpperCase())}" "1" "" "exercises ${roff(version)}" "exercises manual"\n`,
    // On a terminal, groff draws \- as a minus sign (U+2212): flags must copy as typed.
    `.if \\n(.g .if n .char \\- \\N'45'\n`,
    // Left-aligned, no hyphenation: command and file names stay whole.
    '.ad l\n.nh\n',
    section('NAME', `${roff(name)} \\- ${roff(cmd.description().split('\n')[0])}\n`),
    section('SYNOPSIS', `.B ${roff(usage)}\n`),
    section('DESCRIPTION', description),
    section(path.length ? 'OPTIONS' : 'GLOBAL OPTIONS', options),
    section('EXAMPLES', examples(cmd) || `${roff('See exercises(1).')}\n`),
    section('EXIT STATUS', exitStatus),
    section('ENVIRONMENT', environment),
    section('FILES', files),
    section('SEE ALSO', seeAlso(path, cmd)),
  ].join('');
}

// exercises(1) has OPTIONS too: its own options are the global ones.
function topPage() {
  return page([], program).replace('.SH GLOBAL OPTIONS', '.SH OPTIONS');
}

mkdirSync(outDir, { recursive: true });
// Pages of commands that no longer exist must not linger.
for (const old of readdirSync(outDir)) if (/^exercises.*\.1$/.test(old)) rmSync(join(outDir, old));
const written = [['exercises', topPage()], ...allCommands(program).map(({ path, cmd }) => [pageName(path), page(path, cmd)])];
for (const [name, text] of written) writeFileSync(join(outDir, `${name}.1`), text);
